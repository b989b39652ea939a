/**
 * TOTP secrets are sealed before they reach the adapter, as provider tokens are
 * (`refresh/at-rest.ts`): compact JWE under a key of their own (HKDF salt
 * {@link TWO_FACTOR_SECRET_SALT}), bound to the user, so a database dump holds nothing usable
 * and a row copied to another user does not open. Every configured secret opens them (rotation).
 */
import { decode, encode } from "../../kernel/token/jwt.js"

export const TWO_FACTOR_SECRET_SALT = "latchkey.two-factor-secret"
const SEALED_PREFIX = "lk2fa1."
/** The row, not the seal, decides how long a secret lives. */
const SEAL_MAX_AGE = 20 * 365 * 24 * 60 * 60

export async function sealTotpSecret(
  secret: readonly string[],
  userId: string,
  totpSecret: string,
): Promise<string> {
  const sealed = await encode({
    token: { s: totpSecret, u: userId },
    secret: [...secret],
    salt: TWO_FACTOR_SECRET_SALT,
    maxAge: SEAL_MAX_AGE,
  })
  return `${SEALED_PREFIX}${sealed}`
}

/** The TOTP secret, or `undefined` when the seal does not open for this user. */
export async function openTotpSecret(
  secret: readonly string[],
  userId: string,
  stored: string,
): Promise<string | undefined> {
  if (typeof stored !== "string" || !stored.startsWith(SEALED_PREFIX)) return undefined
  const payload = await decode<{ s?: unknown; u?: unknown }>({
    token: stored.slice(SEALED_PREFIX.length),
    secret: [...secret],
    salt: TWO_FACTOR_SECRET_SALT,
  })
  if (payload?.u !== userId || typeof payload.s !== "string") return undefined
  return payload.s
}
