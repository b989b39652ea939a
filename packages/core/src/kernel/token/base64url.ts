/**
 * Strict base64url checks. Decoders (Node's Buffer, atob) silently skip bad characters and
 * ignore the unused low bits of the last character, which would let several strings decode to
 * the same bytes. A token must have exactly one spelling, so anything non-canonical is refused.
 */

const ALPHABET = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_"
const VALUE = new Int8Array(128).fill(-1)
for (let i = 0; i < ALPHABET.length; i++) VALUE[ALPHABET.charCodeAt(i)] = i
const BASE64URL = /^[A-Za-z0-9_-]*$/

/** Whether `s` is unpadded base64url that re-encodes to itself. The empty string is canonical. */
export function isCanonicalBase64url(s: string): boolean {
  const rest = s.length % 4
  if (rest === 1 || !BASE64URL.test(s)) return false
  if (rest === 0) return true
  // 2 trailing chars carry 1 byte (4 spare bits), 3 carry 2 bytes (2 spare bits): spares must be 0.
  const last = VALUE[s.charCodeAt(s.length - 1)]!
  return (last & (rest === 2 ? 0x0f : 0x03)) === 0
}

/** Bytes a canonical base64url string of this length decodes to. */
export function decodedLength(length: number): number {
  return Math.floor((length * 3) / 4)
}
