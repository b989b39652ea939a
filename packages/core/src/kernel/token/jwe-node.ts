/**
 * JWE on Node: synchronous `node:crypto`, no WebCrypto promises and no per-call key imports.
 * A256CBC-HS512 is built from its parts as RFC 7518 §5.2 specifies (proven against the
 * Appendix B.3 vector and against jose in the tests); A256GCM is only ever decrypted.
 */
import {
  createCipheriv,
  createDecipheriv,
  createHash,
  createHmac,
  createSecretKey,
  hkdfSync,
  type KeyObject,
  randomBytes,
  timingSafeEqual,
} from "node:crypto"
import {
  type CompactParts,
  type DerivedKey,
  type Enc,
  hkdfInfo,
  type JweBackend,
  KEY_LENGTH,
  protectedHeaderJson,
  thumbprintInput,
} from "./backend.js"

interface NodeKeyMaterial {
  /** The protected header as AAD, and its bit length, precomputed for our own header. */
  aad: Buffer
  al: Buffer
  /** A256CBC-HS512: first half of the key. */
  mac?: KeyObject
  /** A256CBC-HS512: second half; A256GCM: the whole key. */
  cipher: KeyObject
}

const TAG_BYTES: Record<Enc, number> = { "A256CBC-HS512": 32, A256GCM: 16 }
const IV_BYTES: Record<Enc, number> = { "A256CBC-HS512": 16, A256GCM: 12 }

function deriveKey(secret: string, salt: string, enc: Enc): DerivedKey {
  const raw = Buffer.from(hkdfSync("sha256", secret, salt, hkdfInfo(salt), KEY_LENGTH[enc]))
  const hash = raw.byteLength === 64 ? "sha512" : "sha256"
  const kid = createHash(hash)
    .update(thumbprintInput(raw.toString("base64url")))
    .digest("base64url")
  const headerB64 = Buffer.from(protectedHeaderJson(enc, kid)).toString("base64url")
  const aad = Buffer.from(headerB64, "ascii")
  const material: NodeKeyMaterial =
    enc === "A256CBC-HS512"
      ? {
          aad,
          al: aadBitLength(aad),
          mac: createSecretKey(raw.subarray(0, 32)),
          cipher: createSecretKey(raw.subarray(32)),
        }
      : { aad, al: aadBitLength(aad), cipher: createSecretKey(raw) }
  return { enc, kid, headerB64, material }
}

/** AL of RFC 7518 §5.2.2.1: the AAD length in bits as a 64-bit big-endian integer. */
function aadBitLength(aad: Buffer): Buffer {
  const al = Buffer.alloc(8)
  al.writeBigUInt64BE(BigInt(aad.byteLength) * 8n)
  return al
}

function cbcTag(
  mac: KeyObject,
  aad: Buffer,
  iv: Buffer,
  ciphertext: Buffer,
  al = aadBitLength(aad),
): Buffer {
  return createHmac("sha512", mac)
    .update(aad)
    .update(iv)
    .update(ciphertext)
    .update(al)
    .digest()
    .subarray(0, 32)
}

/** AES_256_CBC_HMAC_SHA_512 encryption (RFC 7518 §5.2.2.1) with a caller-chosen IV. */
export function encryptCbcHs512(
  mac: KeyObject,
  cipher: KeyObject,
  iv: Buffer,
  plaintext: Uint8Array,
  aad: Buffer,
  al?: Buffer,
): { ciphertext: Buffer; tag: Buffer } {
  const c = createCipheriv("aes-256-cbc", cipher, iv)
  const ciphertext = Buffer.concat([c.update(plaintext), c.final()])
  return { ciphertext, tag: cbcTag(mac, aad, iv, ciphertext, al) }
}

/** AES_256_CBC_HMAC_SHA_512 decryption (RFC 7518 §5.2.2.2); `null` unless the tag verifies. */
export function decryptCbcHs512(
  mac: KeyObject,
  cipher: KeyObject,
  iv: Buffer,
  ciphertext: Buffer,
  tag: Buffer,
  aad: Buffer,
  al?: Buffer,
): Buffer | null {
  // Authenticate before decrypting, in constant time: no padding oracle, no timing leak.
  if (tag.byteLength !== 32 || !timingSafeEqual(cbcTag(mac, aad, iv, ciphertext, al), tag)) {
    return null
  }
  try {
    const d = createDecipheriv("aes-256-cbc", cipher, iv)
    return Buffer.concat([d.update(ciphertext), d.final()])
  } catch {
    return null
  }
}

function seal(key: DerivedKey, plaintext: string): string {
  const { mac, cipher, aad, al } = key.material as NodeKeyMaterial
  if (key.enc !== "A256CBC-HS512" || !mac) throw new TypeError(`cannot encrypt with ${key.enc}`)
  const iv = randomBytes(16)
  const bytes = Buffer.from(plaintext, "utf8")
  const { ciphertext, tag } = encryptCbcHs512(mac, cipher, iv, bytes, aad, al)
  return `${key.headerB64}..${iv.toString("base64url")}.${ciphertext.toString("base64url")}.${tag.toString("base64url")}`
}

function open(key: DerivedKey, parts: CompactParts): string | null {
  return openBytes(key, parts)?.toString("utf8") ?? null
}

function openBytes(key: DerivedKey, parts: CompactParts): Buffer | null {
  const iv = Buffer.from(parts.iv, "base64url")
  const tag = Buffer.from(parts.tag, "base64url")
  if (iv.byteLength !== IV_BYTES[key.enc] || tag.byteLength !== TAG_BYTES[key.enc]) return null
  const material = key.material as NodeKeyMaterial
  const { mac, cipher } = material
  // Our own tokens carry exactly the key's header: reuse its precomputed AAD and length.
  const own = parts.headerB64 === key.headerB64
  const aad = own ? material.aad : Buffer.from(parts.headerB64, "ascii")
  const ciphertext = Buffer.from(parts.ciphertext, "base64url")
  if (key.enc === "A256CBC-HS512") {
    return mac
      ? decryptCbcHs512(mac, cipher, iv, ciphertext, tag, aad, own ? material.al : undefined)
      : null
  }
  try {
    const d = createDecipheriv("aes-256-gcm", cipher, iv, { authTagLength: 16 })
    d.setAAD(aad)
    d.setAuthTag(tag)
    return Buffer.concat([d.update(ciphertext), d.final()])
  } catch {
    return null
  }
}

export const jwe: JweBackend = { deriveKey, seal, open }
