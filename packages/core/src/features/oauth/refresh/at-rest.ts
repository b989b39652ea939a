/**
 * Provider tokens in the `accounts` row are sealed with the token module (compact JWE,
 * A256CBC-HS512) under a key of their own: HKDF from the secret with the salt
 * {@link PROVIDER_TOKEN_SALT}, so neither a session cookie nor a check cookie can be swapped in
 * for a stored token, or the reverse. Every configured secret opens them (rotation).
 *
 * A sealed value starts with {@link SEALED_PREFIX}. A value without it is a plaintext token
 * written by Auth.js (or before `refresh` was turned on): it is read as it is and sealed at the
 * next write.
 */
import { decode, encode } from "../../../kernel/token/jwt.js"

export const PROVIDER_TOKEN_SALT = "latchkey.provider-token"
export const SEALED_PREFIX = "lk1."
/** Sealed tokens outlive any refresh token: the row, not the seal, decides when they go. */
const SEAL_MAX_AGE = 10 * 365 * 24 * 60 * 60

export async function sealToken(secret: readonly string[], value: string): Promise<string> {
  const sealed = await encode({
    token: { v: value },
    secret: [...secret],
    salt: PROVIDER_TOKEN_SALT,
    maxAge: SEAL_MAX_AGE,
  })
  return `${SEALED_PREFIX}${sealed}`
}

/**
 * The token inside `stored`, or `undefined` when it cannot be opened (no secret that sealed it
 * is configured any more): the user then signs in with the provider again.
 */
export async function openToken(
  secret: readonly string[],
  stored: string | null | undefined,
): Promise<string | undefined> {
  if (typeof stored !== "string" || stored === "") return undefined
  if (!stored.startsWith(SEALED_PREFIX)) return stored
  const payload = await decode<{ v?: unknown }>({
    token: stored.slice(SEALED_PREFIX.length),
    secret: [...secret],
    salt: PROVIDER_TOKEN_SALT,
  })
  return typeof payload?.v === "string" ? payload.v : undefined
}
