/**
 * `POST /signout` (CSRF-checked): revoke what can be revoked (the database row; a JWT can only
 * be forgotten by the browser), fire `signOut`, clear every session cookie, redirect to the
 * callback URL. A failure along the way is logged; the cookies are cleared regardless.
 */
import { SignOutError } from "../../errors.js"
import { resolveCallbackUrl } from "../callback-url.js"
import { addCookies, type RequestContext } from "../context.js"
import { clearSessionCookies, presentSessionCookieNames } from "../cookies/session-store.js"
import { requireCsrf } from "../csrf/require.js"
import { emitEvent } from "../events.js"
import { type Outcome, redirect } from "../http/outcome.js"
import { sessionContext } from "../session/from-request.js"
import { decodeSessionCookie } from "../session/jwt-session.js"

export async function signOutAction(ctx: RequestContext): Promise<Outcome> {
  await requireCsrf(ctx)
  const callbackUrl = await resolveCallbackUrl(ctx)
  const { name, options } = ctx.cookies.sessionToken
  const present = presentSessionCookieNames(ctx.parsed.cookies, name)
  if (present.length === 0) return redirect(callbackUrl)

  const { config, logger } = ctx
  try {
    if (config.session.strategy === "jwt") {
      const token = await decodeSessionCookie(sessionContext(ctx))
      await emitEvent(config.events, logger, "signOut", { token })
    } else {
      const sessionToken = ctx.parsed.cookies[name]
      const session = sessionToken ? await config.adapter!.deleteSession!(sessionToken) : null
      await emitEvent(config.events, logger, "signOut", { session: session ?? null })
    }
  } catch (cause) {
    logger.error(new SignOutError("Sign-out could not revoke the session", { cause }))
  }
  addCookies(ctx, clearSessionCookies(options, present))
  logger.debug("signed out", { strategy: config.session.strategy })
  return redirect(callbackUrl)
}
