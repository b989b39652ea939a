/** CSPRNG output in the encodings the core needs (WebCrypto only: works on every runtime). */

export function randomBytes(length: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(length)
  crypto.getRandomValues(bytes)
  return bytes
}

export function toHex(bytes: Uint8Array): string {
  let out = ""
  for (const byte of bytes) out += byte.toString(16).padStart(2, "0")
  return out
}

/** Lowercase hex, or `null` when `hex` is not an even-length hex string. */
export function fromHex(hex: string): Uint8Array | null {
  if (hex.length % 2 !== 0 || !/^[0-9a-f]*$/.test(hex)) return null
  const out = new Uint8Array(hex.length / 2)
  for (let i = 0; i < out.length; i++) out[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16)
  return out
}

export function toBase64Url(bytes: Uint8Array): string {
  let binary = ""
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "")
}

/** `length` random bytes as lowercase hex. */
export function randomHex(length: number): string {
  return toHex(randomBytes(length))
}

/** `length` random bytes as base64url without padding. */
export function randomBase64Url(length: number): string {
  return toBase64Url(randomBytes(length))
}

/**
 * The default database session token: 256 bits from the CSPRNG, base64url (43 characters).
 * Auth.js uses a UUID (122 random bits), below ASVS 7.2.3's 128.
 */
export function generateSessionToken(): string {
  return randomBase64Url(32)
}
