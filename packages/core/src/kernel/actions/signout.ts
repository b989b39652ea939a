/**
 * `POST /signout` (CSRF-checked): revoke the session (the database row; for a JWT its `sid`,
 * unless `session.revocation` is `"off"`), fire `signOut`, clear every session cookie, redirect to the
 * callback URL. A failure along the way is logged; the cookies are cleared regardless.
 */

import { clearSessionCookies, presentSessionCookieNames } from "../cookies/session-store.js"
import { requireCsrf } from "../csrf/require.js"
import { SignOutError } from "../errors/errors.js"
import { emitEvent } from "../events/emit.js"
import { endUserSessions } from "../grants/end-sessions.js"
import { resolveCallbackUrl } from "../http/callback-url.js"
import { addCookies, type RequestContext } from "../http/context.js"
import { type Outcome, redirect } from "../http/outcome.js"
import { revocationBackend, tokenLifetime } from "../revocation/index.js"
import { nowSeconds } from "../runtime/time.js"
import { sessionContext } from "../session/from-request.js"
import { decodeSessionCookie } from "../session/jwt-session.js"

export async function signOutAction(ctx: RequestContext): Promise<Outcome> {
  await requireCsrf(ctx)
  const callbackUrl = await resolveCallbackUrl(ctx)
  const { name, options } = ctx.cookies.sessionToken
  const present = presentSessionCookieNames(ctx.parsed.cookies, name)
  if (present.length === 0) return redirect(callbackUrl)

  const { config, logger } = ctx
  // `everywhere=true` in the form: "sign out everywhere" (every session of this user).
  const everywhere = ctx.parsed.body.everywhere === "true" || ctx.parsed.body.everywhere === true
  try {
    if (config.session.strategy === "jwt") {
      const token = await decodeSessionCookie(sessionContext(ctx))
      // The browser forgets the cookie; the revocation makes a copy of it useless too. Not
      // until this token's `exp`: a thief's copy may have been re-issued since, with a later
      // one. No copy re-issued before now outlives now + the token lifetime, and every later
      // re-issue checks the revocation first.
      if (token && typeof token.sid === "string" && config.session.revocation !== "off") {
        const until = nowSeconds() + tokenLifetime(config)
        await revocationBackend(config).revokeSession(token.sid, until)
      }
      if (everywhere && typeof token?.sub === "string") await endUserSessions(ctx.config, token.sub)
      await emitEvent(config.events, logger, "signOut", { token })
    } else {
      const sessionToken = ctx.parsed.cookies[name]
      const session = sessionToken ? await config.adapter!.deleteSession!(sessionToken) : null
      if (everywhere && session) await endUserSessions(ctx.config, session.userId)
      await emitEvent(config.events, logger, "signOut", { session: session ?? null })
    }
  } catch (cause) {
    logger.error(new SignOutError("Sign-out could not revoke the session", { cause }))
  }
  addCookies(ctx, clearSessionCookies(options, present))
  logger.debug("signed out", { strategy: config.session.strategy })
  return redirect(callbackUrl)
}
