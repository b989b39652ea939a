/**
 * The end of every sign-in, whatever the provider kind: `signIn` callback outcome, user and
 * account resolution (adapter), a new session (JWT cookie via the `jwt` callback, or a
 * database row), `signIn` event, redirect to the callback URL or the new-user page.
 *
 * OAuth/OIDC, email and WebAuthn callbacks call this once they have verified the user.
 */
import { AccessDenied, AuthError } from "../../../errors.js"
import type { JWT } from "../../../jwt.js"
import type { ProviderConfig } from "../../../providers/index.js"
import type { Account, CallbacksOptions, Profile, User } from "../../../types.js"
import { coarseUserAgent } from "../../account/user-agent.js"
import { addCookies, pageUrl, type RequestContext } from "../../context.js"
import { clearSessionCookies, presentSessionCookieNames } from "../../cookies/session-store.js"
import { emitEvent } from "../../events.js"
import { type Outcome, redirect } from "../../http/outcome.js"
import { toLocation } from "../../redirect.js"
import { issueWithinBudget } from "../../refresh/session-cookie.js"
import { withSignInTokens } from "../../refresh/sign-in.js"
import { newSessionClaims, revokeReplacedSession } from "../../revocation/index.js"
import { sessionContext } from "../../session/from-request.js"
import { issueDatabaseSession, issueJwtSession } from "../../session/issue.js"
import { decodeSessionCookie } from "../../session/jwt-session.js"
import { resolveLogin } from "./handle-login.js"

export interface SignInAttempt {
  /** The user as the provider (or `authorize`) describes them; for OAuth, the adapter's user if known. */
  user: User
  account: Account | null
  profile?: Profile
  /** OAuth/OIDC: whether the provider vouches for `user.email` (gates linking by email). */
  emailVerified?: boolean
  /** Credentials sign-in: the posted fields (without `csrfToken`), for the `signIn` callback. */
  credentials?: Record<string, unknown>
  /** Where to go afterwards (already validated by `resolveCallbackUrl`). */
  callbackUrl: string
  /**
   * Runs once the user is resolved (created or linked), before the session is issued: WebAuthn
   * stores the authenticator (or its new counter) here, so a refused sign-in stores nothing.
   */
  afterLogin?: (user: User) => Promise<void>
}

const userAgentOf = (ctx: RequestContext) => coarseUserAgent(ctx.request.headers.get("user-agent"))

type JwtParams = Parameters<Required<CallbacksOptions>["jwt"]>[0]

export async function completeSignIn(
  ctx: RequestContext,
  provider: ProviderConfig,
  attempt: SignInAttempt,
): Promise<Outcome> {
  const { config, logger } = ctx
  const detour = await runSignInCallback(ctx, attempt)
  if (detour !== undefined) return redirect(detour)

  const { user, account, isNewUser } = await resolveLogin(ctx, provider, attempt)
  await attempt.afterLogin?.(user)
  const sctx = sessionContext(ctx)

  if (config.session.strategy === "jwt") {
    // Read before the new cookie replaces it (only when the browser sent one).
    const previous =
      presentSessionCookieNames(ctx.parsed.cookies, ctx.cookies.sessionToken.name).length > 0
        ? await decodeSessionCookie(sctx)
        : null
    const claims = await newSessionClaims(config, logger, user.id, userAgentOf(ctx))
    const defaultToken: JWT = {
      name: user.name ?? null,
      email: user.email ?? null,
      picture: user.image ?? null,
      sub: user.id,
      ...claims,
    }
    const token = await config.callbacks.jwt({
      token: defaultToken,
      user,
      account,
      ...(attempt.profile ? { profile: attempt.profile } : {}),
      isNewUser,
      trigger: isNewUser ? "signUp" : "signIn",
    } as JwtParams)
    if (token === null || token === undefined) {
      const { name, options } = ctx.cookies.sessionToken
      addCookies(
        ctx,
        clearSessionCookies(options, presentSessionCookieNames(ctx.parsed.cookies, name)),
      )
    } else {
      // The session's identity is the core's: a callback that rebuilt the token keeps it.
      const session = { ...token, ...claims }
      // No adapter: a refreshing provider's tokens ride in the (encrypted) session token.
      const withTokens = config.adapter ? session : withSignInTokens(session, provider, account)
      addCookies(
        ctx,
        withTokens === session
          ? await issueJwtSession(sctx, session)
          : await issueWithinBudget(sctx, withTokens, provider.id),
      )
      await revokeReplacedSession(config, logger, previous, claims.sid)
    }
  } else {
    if (!user.id) throw new AccessDenied("A database session needs a user id")
    const { cookies } = await issueDatabaseSession(sctx, user.id, { userAgent: userAgentOf(ctx) })
    addCookies(ctx, cookies)
  }

  await emitEvent(config.events, logger, "signIn", {
    user,
    account,
    ...(attempt.profile ? { profile: attempt.profile } : {}),
    isNewUser,
  })
  logger.debug("signed in", { provider: provider.id, isNewUser, strategy: config.session.strategy })

  if (isNewUser && config.pages.newUser) {
    return redirect(pageUrl(ctx, "newUser", { callbackUrl: attempt.callbackUrl }))
  }
  return redirect(attempt.callbackUrl)
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
