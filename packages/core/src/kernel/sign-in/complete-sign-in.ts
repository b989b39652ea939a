/**
 * The end of every sign-in, whatever the provider kind: `signIn` callback outcome, user and
 * account resolution (adapter), a new session (JWT cookie via the `jwt` callback, or a
 * database row), `signIn` event, redirect to the callback URL or the new-user page.
 *
 * OAuth/OIDC, email and WebAuthn callbacks call this once they have verified the user.
 */
import { AccessDenied, AuthError } from "../errors/errors.js"
import { featureOf, featuresOf, type VerifiedSignIn } from "../feature/feature.js"

export type { VerifiedSignIn }

import { isEmailProven } from "../account/email-ownership.js"
import { coarseUserAgent } from "../account/user-agent.js"
import type { CallbacksOptions } from "../config/auth-config.js"
import { clearSessionCookies, presentSessionCookieNames } from "../cookies/session-store.js"
import { emitEvent } from "../events/emit.js"
import { addCookies, pageUrl, type RequestContext } from "../http/context.js"
import { type Outcome, redirect } from "../http/outcome.js"
import { newSessionClaims, revokeReplacedSession } from "../revocation/index.js"
import { databaseSessionsOf } from "../session/database-sessions.js"
import { sessionContext } from "../session/from-request.js"
import { issueJwtSession } from "../session/issue.js"
import { decodeSessionCookie } from "../session/jwt-session.js"
import type { JWT } from "../token/jwt.js"
import type { ProviderConfig } from "../types/provider.js"
import type { User } from "../types/records.js"
import type { SignInAttempt } from "../types/sign-in-attempt.js"
import { toLocation } from "../urls/redirect.js"
import { resolveLogin } from "./handle-login.js"

export type { SignInAttempt } from "../types/sign-in-attempt.js"

const userAgentOf = (ctx: RequestContext) => coarseUserAgent(ctx.request.headers.get("user-agent"))

type JwtParams = Parameters<Required<CallbacksOptions>["jwt"]>[0]

export async function completeSignIn(
  ctx: RequestContext,
  provider: ProviderConfig,
  attempt: SignInAttempt,
): Promise<Outcome> {
  const detour = await runSignInCallback(ctx, attempt)
  if (detour !== undefined) return redirect(detour)

  const { user, account, isNewUser, linkedToCurrent } = await resolveLogin(ctx, provider, attempt)
  await attempt.afterLogin?.(user)
  if (linkedToCurrent) {
    // Nobody signed in: the current session goes on as it is, and no `signIn` event fires.
    addCookies(ctx, linkedToCurrent.cookies)
    ctx.logger.debug("account linked to the current session", { provider: provider.id })
    return redirect(attempt.callbackUrl)
  }
  const amr = attempt.amr ?? firstFactorAmr(provider)
  const signIn: VerifiedSignIn = {
    user,
    account,
    ...(attempt.profile ? { profile: attempt.profile } : {}),
    isNewUser,
    amr,
    callbackUrl: attempt.callbackUrl,
  }
  // Where a feature joins the sign-in (a second factor due): its outcome replaces the session.
  for (const feature of featuresOf(ctx.config)) {
    const detour = await feature.afterFirstFactor?.(ctx, provider, signIn)
    if (detour !== undefined) return detour
  }
  return issueSignIn(ctx, provider, signIn)
}

/** The `amr` (RFC 8176) of a first factor, by provider kind. */
export function firstFactorAmr(provider: Pick<ProviderConfig, "type">): string[] {
  switch (provider.type) {
    case "credentials":
      return ["pwd"]
    case "email":
      return ["email"]
    case "webauthn":
      return ["hwk"]
    default:
      return ["fed"]
  }
}

/**
 * Whether the session is issued to a row a claim could still take: an adapter's row whose
 * address nobody proved. A credentials sign-in never is (a password account signs in only once
 * proven; an app's own credentials are its own to clear), and without an adapter there are no
 * rows. Such a session is checked against the account's state on every read.
 */
function claimable(ctx: RequestContext, provider: ProviderConfig | undefined, user: User): boolean {
  if (!ctx.config.adapter || provider?.type === "credentials") return false
  return !isEmailProven(user as { emailVerified?: Date | null })
}

export function defaultTokenOf(user: User): JWT {
  return {
    name: user.name ?? null,
    email: user.email ?? null,
    picture: user.image ?? null,
    sub: user.id,
  }
}

export async function runJwtCallback(ctx: RequestContext, signIn: VerifiedSignIn, token: JWT) {
  const { user, account, profile, isNewUser } = signIn
  return ctx.config.callbacks.jwt({
    token,
    user,
    account,
    ...(profile ? { profile } : {}),
    isNewUser,
    trigger: isNewUser ? "signUp" : "signIn",
  } as JwtParams)
}

/**
 * Issues the session (JWT cookie or database row), fires `signIn`, redirects to the callback
 * URL or the new-user page. `provider` is the first factor's (`undefined` when it is no longer
 * configured: only the in-token provider tokens depend on it).
 */
export async function issueSignIn(
  ctx: RequestContext,
  provider: ProviderConfig | undefined,
  signIn: VerifiedSignIn,
): Promise<Outcome> {
  const { config, logger } = ctx
  const { user, account, isNewUser, amr } = signIn
  const sctx = sessionContext(ctx)
  const unproven = claimable(ctx, provider, user)

  if (config.session.strategy === "jwt") {
    // Read before the new cookie replaces it (only when the browser sent one).
    const previous =
      presentSessionCookieNames(ctx.parsed.cookies, ctx.cookies.sessionToken.name).length > 0
        ? await decodeSessionCookie(sctx)
        : null
    const claims = await newSessionClaims(config, logger, user.id, userAgentOf(ctx))
    const token =
      signIn.token ??
      (await runJwtCallback(ctx, signIn, { ...defaultTokenOf(user), ...claims, amr }))
    if (token === null || token === undefined) {
      const { name, options } = ctx.cookies.sessionToken
      addCookies(
        ctx,
        clearSessionCookies(options, presentSessionCookieNames(ctx.parsed.cookies, name)),
      )
    } else {
      // The session's identity is the core's: a callback that rebuilt the token keeps it.
      // `amr` is the core's after a second factor; at a one-step sign-in an app that proves
      // more itself may say so from its `jwt` callback.
      const said = signIn.token === undefined && Array.isArray(token.amr) ? token.amr : undefined
      const session: JWT = {
        ...token,
        ...claims,
        amr: said ?? amr,
        ...(unproven ? { unproven: true } : {}),
      }
      // No adapter: what the provider's feature keeps rides in the (encrypted) session token.
      const keep = config.adapter || !provider ? undefined : featureOf(provider)?.session
      const kept = await keep?.tokenAtSignIn?.(sctx, provider!, account, session)
      addCookies(ctx, kept ?? (await issueJwtSession(sctx, session)))
      await revokeReplacedSession(config, logger, previous, claims.sid)
    }
  } else {
    if (!user.id) throw new AccessDenied("A database session needs a user id")
    const { cookies } = await databaseSessionsOf(config).issue(
      sctx,
      { id: user.id, proven: !unproven },
      {
        userAgent: userAgentOf(ctx),
        amr,
      },
    )
    addCookies(ctx, cookies)
  }

  await emitEvent(config.events, logger, "signIn", {
    user,
    account,
    ...(signIn.profile ? { profile: signIn.profile } : {}),
    isNewUser,
  })
  logger.debug("signed in", {
    provider: provider?.id,
    isNewUser,
    strategy: config.session.strategy,
    amr,
  })

  if (isNewUser && config.pages.newUser) {
    return redirect(pageUrl(ctx, "newUser", { callbackUrl: signIn.callbackUrl }))
  }
  return redirect(signIn.callbackUrl)
}

/**
 * A sign-in that goes on elsewhere (a second factor due) ends the request's previous session,
 * as any new sign-in replaces it.
 */
export async function endPreviousSession(ctx: RequestContext): Promise<void> {
  const { name, options } = ctx.cookies.sessionToken
  const present = presentSessionCookieNames(ctx.parsed.cookies, name)
  if (present.length === 0) return
  const previous = ctx.parsed.cookies[name]
  if (ctx.config.session.strategy === "database" && previous) {
    try {
      await ctx.config.adapter!.deleteSession!(previous)
    } catch {
      // Already gone: nothing left to end.
    }
  }
  addCookies(ctx, clearSessionCookies(options, present))
}

/**
 * The `signIn` callback's verdict: `true` (or any non-string truthy value) continues and gives
 * `undefined`; a string is a redirect target (through the `redirect` callback); `false` → an
 * `AccessDenied`; a throw → that `AuthError` unchanged, anything else → `AccessDenied` carrying
 * the original message (and the error as `cause`).
 */
async function runSignInCallback(
  ctx: RequestContext,
  attempt: SignInAttempt,
): Promise<string | undefined> {
  let verdict: boolean | string
  try {
    verdict = await ctx.config.callbacks.signIn({
      user: attempt.user,
      account: attempt.account,
      ...(attempt.profile ? { profile: attempt.profile } : {}),
      ...(attempt.credentials ? { credentials: attempt.credentials } : {}),
    })
  } catch (error) {
    if (error instanceof AuthError) throw error
    const message = error instanceof Error ? error.message : String(error)
    throw new AccessDenied(message, { cause: error })
  }
  if (typeof verdict === "string") {
    const chosen = await ctx.config.callbacks.redirect({ url: verdict, baseUrl: ctx.origin })
    return toLocation(chosen, ctx.origin)
  }
  if (!verdict) throw new AccessDenied("The signIn callback refused this user")
  return undefined
}
