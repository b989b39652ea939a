/**
 * The CSRF token for a page or `GET /csrf`: the cookie's if it verifies for this session, else
 * a new one (after a sign-in or sign-out the session changed, so a new pair is minted).
 */
import { addCookies, type RequestContext } from "../http/context.js"
import { sessionIdentity } from "../session/binding.js"
import { createCsrfPair, readCsrfCookie } from "./double-submit.js"

/** `""` with `skipCSRFCheck` (no cookie is minted; forms then carry an empty field). */
export async function ensureCsrfToken(ctx: RequestContext): Promise<string> {
  if (ctx.config.skipCSRFCheck) return ""
  const { name, options } = ctx.cookies.csrfToken
  const session = await sessionIdentity(ctx)
  const existing = await readCsrfCookie(ctx.parsed.cookies[name], ctx.config.secret, session)
  if (existing !== null) return existing
  const pair = await createCsrfPair(ctx.config.secret, session)
  addCookies(ctx, [{ name, value: pair.cookieValue, options }])
  ctx.logger.debug("CSRF cookie created")
  return pair.token
}
