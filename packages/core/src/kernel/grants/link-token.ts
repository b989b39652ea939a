/**
 * Email verification tokens: the raw token travels only in the mail; the database stores
 * HMAC-SHA-256(key, token), with the key derived from the secret by HKDF. A database leak
 * therefore yields no usable link, and (unlike Auth.js's `sha256(token + secret)`) the stored
 * value is a real MAC, not a hash with the secret glued on.
 *
 * Rotation: the newest secret (the first) signs; verification tries each configured secret,
 * so links mailed just before a rotation still work for their 10 minutes.
 */
import { constantTimeEqual } from "../crypto/constant-time.js"
import { deriveHmacKey, hmacSha256 } from "../crypto/hmac.js"
import { randomBase64Url, toHex } from "../crypto/random.js"

/** Default lifetime of a link: 10 minutes (ASVS 6.5.5; Auth.js: 24 hours). */
export const DEFAULT_EMAIL_MAX_AGE = 10 * 60

/** 32 bytes (256 bits) from the CSPRNG, base64url: 43 URL-safe characters. */
export function generateVerificationToken(): string {
  return randomBase64Url(32)
}

// HKDF per (secret) costs two WebCrypto calls; a few secrets are configured per process, so a
// small map is enough and keeps verification at the cost of one HMAC per secret.
const keyCache = new Map<string, Promise<CryptoKey>>()
const MAX_CACHED_KEYS = 32

function keyFor(secret: string): Promise<CryptoKey> {
  let key = keyCache.get(secret)
  if (key === undefined) {
    if (keyCache.size >= MAX_CACHED_KEYS) keyCache.clear()
    key = deriveHmacKey(secret, "email verification token")
    // A failed derivation must not be cached as a rejected promise forever.
    key.catch(() => keyCache.delete(secret))
    keyCache.set(secret, key)
  }
  return key
}

/** The secrets in use, newest first. An empty list is a configuration error for the caller. */
export function secretList(secret: string | readonly string[] | undefined): string[] {
  const list = typeof secret === "string" ? [secret] : [...(secret ?? [])]
  return list.filter((s) => typeof s === "string" && s !== "")
}

/** The value stored for `token`: hex HMAC-SHA-256 under the key derived from `secret`. */
export async function hashVerificationToken(token: string, secret: string): Promise<string> {
  return toHex(await hmacSha256(await keyFor(secret), token))
}

/** Whether two stored hashes are equal, in time independent of where they differ. */
export function storedTokenEquals(a: string, b: string): boolean {
  const encoder = new TextEncoder()
  return constantTimeEqual(encoder.encode(a), encoder.encode(b))
}
