/**
 * The post-sign-in/out destination: body `callbackUrl`, else query `callbackUrl`, else the
 * callback-url cookie (set during an OAuth or email round trip), passed through the
 * `redirect` callback. The cookie is written only when the request names a new destination,
 * not on every first visit as in Auth.js. A destination whose cookie would not fit in one
 * `Set-Cookie` header (4096 bytes) falls back to the origin: never an oversized header.
 */

import { serializeCookie } from "../cookies/serialize.js"
import { MAX_SET_COOKIE_HEADER_BYTES } from "../cookies/session-store.js"
import { toLocation } from "../urls/redirect.js"
import type { RequestContext } from "./context.js"
import { addCookies } from "./context.js"

export async function resolveCallbackUrl(ctx: RequestContext): Promise<string> {
  const { body, query, cookies } = ctx.parsed
  const fromRequest = stringOrUndefined(body.callbackUrl) ?? stringOrUndefined(query.callbackUrl)
  const cookieName = ctx.cookies.callbackUrl.name
  const candidate = fromRequest ?? cookies[cookieName]
  if (!candidate) return ctx.origin

  const chosen = await ctx.config.callbacks.redirect({ url: candidate, baseUrl: ctx.origin })
  let url = toLocation(typeof chosen === "string" ? chosen : ctx.origin, ctx.origin)
  if (fromRequest === undefined) return url
  let cookie = { name: cookieName, value: url, options: ctx.cookies.callbackUrl.options }
  if (serializeCookie(cookie).length > MAX_SET_COOKIE_HEADER_BYTES) {
    ctx.logger.debug("callbackUrl too long for its cookie: using the origin", {
      length: url.length,
    })
    url = toLocation(ctx.origin, ctx.origin)
    cookie = { ...cookie, value: url }
  }
  if (cookies[cookieName] !== url) addCookies(ctx, [cookie])
  return url
}

function stringOrUndefined(value: unknown): string | undefined {
  return typeof value === "string" && value !== "" ? value : undefined
}
