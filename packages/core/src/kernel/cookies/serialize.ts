/** Cookies on the wire: the `cookie` package both ways, plus deletion entries. */
import { parse, serialize } from "cookie"
import type { CookieOption, ResponseCookie } from "../types/cookies.js"

/** The request's cookies (first occurrence of a name wins; values percent-decoded). */
export function parseCookieHeader(header: string | null): Record<string, string | undefined> {
  if (!header) return {}
  return parse(header)
}

/** One `Set-Cookie` header value. */
export function serializeCookie(cookie: ResponseCookie): string {
  return serialize(cookie.name, cookie.value, cookie.options)
}

/** The entry that makes the browser forget `name` (same attributes, empty, `Max-Age=0`). */
export function deletionCookie(name: string, options: CookieOption["options"]): ResponseCookie {
  const { expires: _expires, ...rest } = options
  return { name, value: "", options: { ...rest, maxAge: 0 } }
}

/** Add or replace (by name) cookies in an outgoing list, keeping the latest entry per name. */
export function putCookies(list: ResponseCookie[], cookies: readonly ResponseCookie[]): void {
  for (const cookie of cookies) {
    const at = list.findIndex((c) => c.name === cookie.name)
    if (at === -1) list.push(cookie)
    else list[at] = cookie
  }
}
