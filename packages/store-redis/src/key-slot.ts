/**
 * The Redis Cluster hash slot of a key (`CLUSTER KEYSLOT`), so `getMany` can send one `MGET`
 * per slot. Written here from the cluster specification (CRC16-CCITT/XMODEM of the key, or of
 * its hash tag, modulo 16384) rather than taken from `cluster-key-slot`: that package is
 * archived, and node-redis itself vendors a patched copy it does not export. The tests check
 * it against a real server's `CLUSTER KEYSLOT`.
 */

const TABLE = (() => {
  const table = new Uint16Array(256)
  for (let i = 0; i < 256; i++) {
    let crc = i << 8
    for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? (crc << 1) ^ 0x1021 : crc << 1
    table[i] = crc & 0xffff
  }
  return table
})()

const encoder = new TextEncoder()

function crc16(bytes: Uint8Array): number {
  let crc = 0
  for (const byte of bytes) crc = ((crc << 8) ^ TABLE[((crc >> 8) ^ byte) & 0xff]!) & 0xffff
  return crc
}

/**
 * The slot of `key`. A hash tag — the part between the first `{` and the next `}`, when not
 * empty — is hashed instead of the whole key, so keys sharing a tag share a slot. Bytes, not
 * characters: the key is hashed as the UTF-8 Redis receives.
 */
export function keySlot(key: string): number {
  const bytes = encoder.encode(key)
  const open = bytes.indexOf(0x7b)
  if (open >= 0) {
    const close = bytes.indexOf(0x7d, open + 1)
    if (close > open + 1) return crc16(bytes.subarray(open + 1, close)) & 0x3fff
  }
  return crc16(bytes) & 0x3fff
}
