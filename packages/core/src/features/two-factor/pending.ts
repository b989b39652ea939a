/**
 * The "second factor pending" state between the first factor and the code: a sealed cookie of
 * its own (never the session cookie), so every session reader — `/session`, `getSession`,
 * `getToken`, `getAccessToken`, the Qwik binding — sees no session until the code is verified.
 *
 * A grant bound to the account's state (`kernel/grants/sealed.ts`, salt = the cookie's name, so no
 * other cookie can stand in for it): a claim or a reset between the first factor and the code
 * voids it. Short-lived (`twoFactor.pendingMaxAge`, default 5 minutes), and consumed in the store
 * when the sign-in completes, so a copy of the cookie cannot complete a second one.
 */

import type { CookieOption, ResponseCookie } from "../../kernel/config/auth-config.js"
import {
  clearSessionCookies,
  presentSessionCookieNames,
  writeSessionCookies,
} from "../../kernel/cookies/session-store.js"
import { TwoFactorSignInExpired } from "../../kernel/errors/errors.js"
import { openGrant, type SealedGrantClaims, sealGrant } from "../../kernel/grants/sealed.js"
import type { RequestContext } from "../../kernel/http/context.js"
import { CLOCK_TOLERANCE_SECONDS } from "../../kernel/token/claims.js"
import type { JWT } from "../../kernel/token/jwt.js"
import { sessionCookieCandidates } from "../../kernel/token/read-request.js"
import { twoFactorSettings } from "./config.js"

export const PENDING_COOKIE_BASE_NAME = "latchkey.two-factor"

export interface PendingSecondFactor extends SealedGrantClaims {
  /** The user who passed the first factor. */
  uid: string
  /** `verify`: a code is due; `enroll`: the policy requires enrolling first. */
  step: "verify" | "enroll"
  /** The first factor's `amr` values (RFC 8176). */
  amr: string[]
  /** Where to go once signed in (validated when the sign-in started). */
  cb: string
  /** The provider of the first factor. */
  pid: string
  nu?: boolean
  /** JWT sessions: the token the `jwt` callback built at the first factor (no session identity yet). */
  tok?: JWT
  /** The account of the first factor, without its tokens (for the `signIn` event). */
  acct?: { provider: string; type: string; providerAccountId: string }
}

/** The pending cookie's name and options for this request (secure prefix as the session's). */
export function pendingCookie(ctx: Pick<RequestContext, "cookies" | "secureCookies" | "config">): {
  name: string
  options: CookieOption["options"]
} {
  const { options } = ctx.cookies.sessionToken
  const { expires: _expires, maxAge: _maxAge, ...rest } = options
  return {
    name: `${ctx.secureCookies ? "__Secure-" : ""}${PENDING_COOKIE_BASE_NAME}`,
    options: { ...rest, maxAge: twoFactorSettings(ctx.config)?.pendingMaxAge ?? 300 },
  }
}

export async function sealPending(
  ctx: RequestContext,
  state: Omit<PendingSecondFactor, "st" | "jti" | "exp">,
  maxAge?: number,
): Promise<ResponseCookie[]> {
  const cookie = pendingCookie(ctx)
  const { name } = cookie
  const options = maxAge === undefined ? cookie.options : { ...cookie.options, maxAge }
  const value = await sealGrant<PendingSecondFactor>(ctx.config, name, state, options.maxAge ?? 300)
  const present = presentSessionCookieNames(ctx.parsed.cookies, name)
  return writeSessionCookies(name, value, options, present)
}

/**
 * A new cookie for the same pending step (new `jti`, same end): after a refused code the used
 * one is spent, so every attempt needs the latest cookie and a copied one is worth nothing.
 */
export async function resealPending(
  ctx: RequestContext,
  state: PendingSecondFactor,
): Promise<ResponseCookie[]> {
  const {
    jti: _jti,
    exp,
    iat: _iat,
    st: _st,
    ...rest
  } = state as PendingSecondFactor & { iat?: number }
  const left = Math.floor((exp ?? 0) - Date.now() / 1000)
  if (left <= 0) return clearPending(ctx)
  return sealPending(ctx, rest, left)
}

export function clearPending(ctx: RequestContext): ResponseCookie[] {
  const { name, options } = pendingCookie(ctx)
  return clearSessionCookies(options, presentSessionCookieNames(ctx.parsed.cookies, name))
}

/**
 * The request's pending state, or `undefined` (absent, tampered with, expired, or sealed before
 * the account's state moved).
 */
export async function readPending(ctx: RequestContext): Promise<PendingSecondFactor | undefined> {
  const { name } = pendingCookie(ctx)
  return openGrant<PendingSecondFactor>(
    ctx.config,
    name,
    sessionCookieCandidates(ctx.parsed.cookies, name),
    (state) =>
      (state.step === "verify" || state.step === "enroll") &&
      Array.isArray(state.amr) &&
      typeof state.cb === "string",
  )
}

/** The pending state, or the refusal that sends the user back to sign in. */
export async function requirePending(ctx: RequestContext): Promise<PendingSecondFactor> {
  const state = await readPending(ctx)
  if (!state) {
    throw new TwoFactorSignInExpired(
      "The second-factor step has expired or was never started: sign in again",
      { details: { reason: "pending-missing" } },
    )
  }
  return state
}

/**
 * Marks the pending state used; a second completion with the same cookie is refused. Kept until
 * the cookie could no longer decode.
 */
export async function consumePending(
  ctx: RequestContext,
  state: PendingSecondFactor,
): Promise<void> {
  const ttlMs =
    Math.max(0, (state.exp ?? 0) * 1000 - Date.now()) + (CLOCK_TOLERANCE_SECONDS + 1) * 1000
  const fresh = await ctx.config.store.consumeOnce(`2fa:pending:${state.jti}`, ttlMs)
  if (!fresh) {
    throw new TwoFactorSignInExpired(
      "This second-factor step was already completed: sign in again",
      {
        details: { reason: "pending-replayed" },
      },
    )
  }
}
