/**
 * Writing the core's cookies through Qwik's `event.cookie`, each exactly once and with every
 * attribute. Two sources: the `Set-Cookie` headers of a core `Response` (parsed attribute by
 * attribute from `Headers.getSetCookie()`, the value kept exactly as encoded on the wire) and the
 * cookie objects of `getSession()` (value encoded here the way the core's serializer does).
 *
 * Qwik's serializer writes only one of `Max-Age`/`Expires` and knows neither `Partitioned` nor
 * `Priority`; it does write the value verbatim, so those attributes ride after the value. Cookies
 * the core writes by default never need this.
 */
import type { CookieOptions, RequestEventCommon } from "@builder.io/qwik-city"
import type { ResponseCookie } from "./types.js"

type Attributes = {
  httpOnly?: boolean
  sameSite?: "lax" | "strict" | "none"
  path?: string
  secure?: boolean
  domain?: string
  maxAge?: number
  /** A `Date`, or the HTTP-date exactly as received. */
  expires?: Date | string
  partitioned?: boolean
  priority?: "low" | "medium" | "high"
}

/** One cookie ready to be written: `value` is already in its on-the-wire (encoded) form. */
export interface WireCookie {
  name: string
  value: string
  attributes: Attributes
}

const sameSites = new Set(["lax", "strict", "none"])
const priorities = new Set(["low", "medium", "high"])

/** Parse one `Set-Cookie` header value. Returns `null` for a line without `name=`. */
export function parseSetCookie(line: string): WireCookie | null {
  const [pair = "", ...parts] = line.split(";")
  const eq = pair.indexOf("=")
  if (eq <= 0) return null
  const cookie: WireCookie = {
    name: pair.slice(0, eq).trim(),
    value: pair.slice(eq + 1).trim(),
    attributes: {},
  }
  const a = cookie.attributes
  for (const part of parts) {
    const i = part.indexOf("=")
    const key = (i === -1 ? part : part.slice(0, i)).trim().toLowerCase()
    const val = i === -1 ? "" : part.slice(i + 1).trim()
    switch (key) {
      case "max-age": {
        const n = Number(val)
        if (Number.isInteger(n)) a.maxAge = n
        break
      }
      case "expires":
        a.expires = val
        break
      case "domain":
        a.domain = val
        break
      case "path":
        a.path = val
        break
      case "httponly":
        a.httpOnly = true
        break
      case "secure":
        a.secure = true
        break
      case "partitioned":
        a.partitioned = true
        break
      case "samesite": {
        const v = val.toLowerCase()
        if (sameSites.has(v)) a.sameSite = v as Attributes["sameSite"]
        break
      }
      case "priority": {
        const v = val.toLowerCase()
        if (priorities.has(v)) a.priority = v as Attributes["priority"]
        break
      }
    }
  }
  return cookie
}

function httpDate(expires: Date | string): string {
  return typeof expires === "string" ? expires : expires.toUTCString()
}

/** Write one cookie through `event.cookie.set`, which keeps one `Set-Cookie` per name. */
export function writeCookie(event: RequestEventCommon, cookie: WireCookie): void {
  const { expires, maxAge, partitioned, priority, ...rest } = cookie.attributes
  const options: CookieOptions = { ...rest }
  const trailing: string[] = []
  if (maxAge !== undefined) {
    options.maxAge = maxAge
    if (expires !== undefined) trailing.push(`Expires=${httpDate(expires)}`)
  } else if (expires !== undefined) {
    options.expires = httpDate(expires)
  }
  if (partitioned) trailing.push("Partitioned")
  if (priority) trailing.push(`Priority=${priority[0]!.toUpperCase()}${priority.slice(1)}`)
  const value = trailing.length ? [cookie.value, ...trailing].join("; ") : cookie.value
  event.cookie.set(cookie.name, value, options)
}

/** Apply every `Set-Cookie` of a core response. */
export function applySetCookieHeaders(event: RequestEventCommon, headers: Headers): void {
  for (const line of headers.getSetCookie()) {
    const cookie = parseSetCookie(line)
    if (cookie) writeCookie(event, cookie)
  }
}

/** Apply the cookie objects `getSession()` returned (values not yet encoded). */
export function applyResponseCookies(
  event: RequestEventCommon,
  cookies: readonly ResponseCookie[],
): void {
  for (const c of cookies) {
    writeCookie(event, { name: c.name, value: encodeURIComponent(c.value), attributes: c.options })
  }
}

/** A copy of `response` without `Set-Cookie`, so `event.send` cannot write them a second time. */
export function withoutSetCookie(response: Response): Response {
  const headers = new Headers(response.headers)
  headers.delete("set-cookie")
  return new Response(response.body, {
    status: response.status,
    statusText: response.statusText,
    headers,
  })
}
