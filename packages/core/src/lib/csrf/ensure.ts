/** The CSRF token for a page or `GET /csrf`: the cookie's if it verifies, else a new one. */
import { addCookies, type RequestContext } from "../context.js"
import { createCsrfPair, readCsrfCookie } from "./double-submit.js"

/** `""` with `skipCSRFCheck` (no cookie is minted; forms then carry an empty field). */
export async function ensureCsrfToken(ctx: RequestContext): Promise<string> {
  if (ctx.config.skipCSRFCheck) return ""
  const { name, options } = ctx.cookies.csrfToken
  const existing = await readCsrfCookie(ctx.parsed.cookies[name], ctx.config.secret)
  if (existing !== null) return existing
  const pair = await createCsrfPair(ctx.config.secret)
  addCookies(ctx, [{ name, value: pair.cookieValue, options }])
  ctx.logger.debug("CSRF cookie created")
  return pair.token
}
