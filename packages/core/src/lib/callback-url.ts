/**
 * The post-sign-in/out destination: body `callbackUrl`, else query `callbackUrl`, else the
 * callback-url cookie (set during an OAuth or email round trip), passed through the
 * `redirect` callback. The cookie is written only when the request names a new destination,
 * not on every first visit as in Auth.js.
 */
import type { RequestContext } from "./context.js"
import { addCookies } from "./context.js"
import { toLocation } from "./redirect.js"

export async function resolveCallbackUrl(ctx: RequestContext): Promise<string> {
  const { body, query, cookies } = ctx.parsed
  const fromRequest = stringOrUndefined(body.callbackUrl) ?? stringOrUndefined(query.callbackUrl)
  const cookieName = ctx.cookies.callbackUrl.name
  const candidate = fromRequest ?? cookies[cookieName]
  if (!candidate) return ctx.origin

  const chosen = await ctx.config.callbacks.redirect({ url: candidate, baseUrl: ctx.origin })
  const url = toLocation(typeof chosen === "string" ? chosen : ctx.origin, ctx.origin)
  if (fromRequest !== undefined && cookies[cookieName] !== url) {
    addCookies(ctx, [{ name: cookieName, value: url, options: ctx.cookies.callbackUrl.options }])
  }
  return url
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined
}
