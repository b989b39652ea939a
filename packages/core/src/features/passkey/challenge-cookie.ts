/**
 * The challenge cookie (`authjs.challenge`): the ceremony's challenge, sealed with the token
 * module (salt = the cookie's name), valid 5 minutes, bound to the provider and the action it
 * was issued for and, for a registration, to the user it registers. Opening it also consumes
 * the challenge in the single-use store, so it verifies at most one response.
 */

import { deletionCookie } from "../../kernel/cookies/serialize.js"
import { WebAuthnVerificationError } from "../../kernel/errors/errors.js"
import type { RequestContext } from "../../kernel/http/context.js"
import { CLOCK_TOLERANCE_SECONDS } from "../../kernel/token/claims.js"
import { decode, encode } from "../../kernel/token/jwt.js"
import type { ResponseCookie } from "../../kernel/types/cookies.js"

export const CHALLENGE_MAX_AGE = 5 * 60

const DECODE_LEEWAY_MS = (CLOCK_TOLERANCE_SECONDS + 1) * 1000

export type CeremonyAction = "register" | "authenticate"

/** Who a registration is for: the signed-in user (`id`), or a new user by email. */
export interface RegisteringUser {
  id?: string
  email: string
  name?: string | null
}

export interface SealedChallenge {
  challenge: string
  provider: string
  action: CeremonyAction
  user?: RegisteringUser
  jti?: string
  exp?: number
}

export async function sealChallenge(
  ctx: RequestContext,
  payload: Omit<SealedChallenge, "jti" | "exp">,
): Promise<ResponseCookie> {
  const { name, options } = ctx.cookies.webauthnChallenge
  const value = await encode<SealedChallenge>({
    token: payload,
    secret: [...ctx.config.secret],
    salt: name,
    maxAge: CHALLENGE_MAX_AGE,
  })
  return { name, value, options: { ...options, maxAge: CHALLENGE_MAX_AGE } }
}

export function challengeDeletion(ctx: RequestContext): ResponseCookie {
  const { name, options } = ctx.cookies.webauthnChallenge
  return deletionCookie(name, options)
}

function refuse(
  message: string,
  provider: string,
  reason: string,
  cause?: unknown,
): WebAuthnVerificationError {
  return new WebAuthnVerificationError(message, { cause, details: { provider, reason } })
}

/**
 * The request's challenge for `provider` and `action`: present, decryptable, unexpired, issued
 * for them, and never opened before. Anything else is a `WebAuthnVerificationError` whose
 * message says which check failed (never the value).
 */
export async function openChallenge(
  ctx: RequestContext,
  provider: string,
  action: CeremonyAction,
): Promise<SealedChallenge> {
  const { name } = ctx.cookies.webauthnChallenge
  const raw = ctx.parsed.cookies[name]
  if (!raw) {
    throw refuse(
      "The passkey challenge cookie is missing: request new options",
      provider,
      "missing",
    )
  }
  const sealed = await decode<SealedChallenge>({
    token: raw,
    secret: [...ctx.config.secret],
    salt: name,
  })
  if (!sealed || typeof sealed.challenge !== "string" || typeof sealed.jti !== "string") {
    throw refuse("The passkey challenge is invalid or expired", provider, "invalid")
  }
  if (sealed.provider !== provider) {
    throw refuse("The passkey challenge was issued for another provider", provider, "provider")
  }
  if (sealed.action !== action) {
    throw refuse(
      `The passkey challenge was issued for ${sealed.action}, not ${action}`,
      provider,
      "action",
    )
  }
  // Remembered until the cookie could no longer decode (its expiry plus the decoder's leeway).
  const ttlMs = Math.max(0, (sealed.exp ?? 0) * 1000 - Date.now()) + DECODE_LEEWAY_MS
  let fresh: boolean
  try {
    // The configured store (shared by every instance), else this process's memory store.
    fresh = await ctx.config.store.consumeOnce(`webauthn:${sealed.challenge}`, ttlMs)
  } catch (cause) {
    // Fail closed: without the memory of used challenges a captured request could be replayed.
    throw refuse(
      "The passkey challenge could not be checked (store unavailable)",
      provider,
      "store-unavailable",
      cause,
    )
  }
  if (!fresh) throw refuse("The passkey challenge was already used", provider, "replayed")
  return sealed
}
