import { hkdfSync } from "node:crypto"
import { base64url, CompactEncrypt } from "jose"

export const SECRET = "test-secret-0123456789abcdef0123456789abcdef"
export const SALT = "authjs.session-token"

/** Rebuild a token with a replaced protected header (the tag no longer matches it). */
export function withHeader(token: string, header: Record<string, unknown>): string {
  const [, ...rest] = token.split(".")
  return [base64url.encode(JSON.stringify(header)), ...rest].join(".")
}

export function decodeHeader(token: string): Record<string, unknown> {
  return JSON.parse(new TextDecoder().decode(base64url.decode(token.split(".")[0]!)))
}

/** The Auth.js session key for a secret and salt (HKDF-SHA-256, 64 bytes for A256CBC-HS512). */
export async function deriveKey(secret: string, salt: string): Promise<Uint8Array> {
  const info = `Auth.js Generated Encryption Key (${salt})`
  return new Uint8Array(hkdfSync("sha256", secret, salt, info, 64))
}

/**
 * A token sealed with the right key and exactly the header given (no `kid` unless in `extra`):
 * the tag matches, so only the header check can refuse it.
 */
export async function sealWithHeader(
  claims: Record<string, unknown>,
  extra: Record<string, unknown>,
  secret = SECRET,
  salt = SALT,
): Promise<string> {
  const key = await deriveKey(secret, salt)
  return new CompactEncrypt(new TextEncoder().encode(JSON.stringify(claims)))
    .setProtectedHeader({ alg: "dir", enc: "A256CBC-HS512", ...extra })
    .encrypt(key)
}
