/**
 * Sealed cookies as grants (docs/design/pending-grants.md): state a browser holds between two
 * requests for one account (the second-factor step and its enrollment) is sealed with the token
 * module and carries the account's stamp (`st`); opening it after the account's state moved
 * gives nothing, as an expired cookie does.
 */

import type { ResolvedConfig } from "../config/resolve.js"
import { accountStamp } from "../revocation/stamp.js"
import { decode, encode } from "../token/jwt.js"

/** What every sealed grant carries besides its own fields. */
export interface SealedGrantClaims {
  /** The account it acts for. */
  uid: string
  /** The account's stamp when it was sealed. */
  st?: number
  jti?: string
  exp?: number
}

/** Seals `payload` for `payload.uid` under the cookie `name` (the salt: no other cookie opens it). */
export async function sealGrant<T extends SealedGrantClaims>(
  config: ResolvedConfig,
  name: string,
  payload: Omit<T, "st" | "jti" | "exp">,
  maxAge: number,
): Promise<string> {
  const st = await accountStamp(config, payload.uid)
  return encode<T>({
    token: { ...payload, st } as T,
    secret: [...config.secret],
    salt: name,
    maxAge,
  })
}

/**
 * The first of `candidates` that opens under `name`, passes `valid`, is unexpired (exactly its
 * lifetime: the decoder's clock leeway is for tokens from other machines) and was sealed under
 * the account's current stamp; else `undefined`.
 */
export async function openGrant<T extends SealedGrantClaims>(
  config: ResolvedConfig,
  name: string,
  candidates: readonly string[],
  valid: (payload: T) => boolean,
): Promise<T | undefined> {
  for (const candidate of candidates) {
    const payload = await decode<T>({ token: candidate, secret: [...config.secret], salt: name })
    if (
      payload &&
      typeof payload.uid === "string" &&
      typeof payload.jti === "string" &&
      typeof payload.exp === "number" &&
      payload.exp * 1000 > Date.now() &&
      valid(payload) &&
      (payload.st ?? 0) >= (await accountStamp(config, payload.uid))
    ) {
      return payload
    }
  }
  return undefined
}
