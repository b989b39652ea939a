/**
 * Requests the actions send to the core. They are built from scratch rather than cloned from the
 * action request: only the headers the core reads are copied, so a stale `Content-Length` or an
 * `Accept` header meant for Qwik never reaches it. The core's CSRF check sees the action's own
 * `Origin`/`Sec-Fetch-Site` (same-origin, or Qwik City would have refused it): `skipCSRFCheck` is
 * never used. `X-Auth-Return-Redirect` asks the core for `200 {url}` instead of a redirect, so
 * the action can redirect with 303 through Qwik.
 */

import type { RequestEventCommon } from "@builder.io/qwik-city"
import { Auth, setConnectionIp } from "@latchkey/core"
import { withAccountApi } from "@latchkey/core/account"
import { applySetCookieHeaders, parseSetCookie } from "./cookies.js"
import { COOKIES_SET_KEY } from "./shared-map.js"
import type { QwikAuthConfig } from "./types.js"
import { platformWaitUntil } from "./wait-until.js"

const forwardedHeaders = [
  "cookie",
  "host",
  "user-agent",
  "accept-language",
  "x-forwarded-for",
  "x-forwarded-host",
  "x-forwarded-proto",
] as const

export interface CoreCall {
  /** Path under the app origin, e.g. `/auth/callback/credentials`. */
  path: string
  /** Query string without `?`. */
  query?: string
  body: URLSearchParams | Record<string, unknown>
  /**
   * Ask for `200 {url}` instead of a redirect (default). The account calls turn it off: they
   * want the core's own JSON answer (`{ ok: true }` or a typed error), not a navigation.
   */
  returnRedirect?: boolean
}

function forwardHeaders(event: RequestEventCommon): Headers {
  const headers = new Headers()
  for (const name of forwardedHeaders) {
    const value = name === "cookie" ? cookieHeader(event) : event.request.headers.get(name)
    if (value !== null) headers.set(name, value)
  }
  return headers
}

type CookiesSet = Map<string, string | null>

/**
 * The request's `Cookie` header with what the core already set during this request applied:
 * an action that re-issued the session (ending every other session re-issues this one at the
 * user's new session version) must not be followed by a loader presenting the old cookie,
 * which the core would now refuse and clear.
 */
export function cookieHeader(event: RequestEventCommon): string | null {
  const sent = event.request.headers.get("cookie")
  const set = event.sharedMap.get(COOKIES_SET_KEY) as CookiesSet | undefined
  if (!set) return sent
  const pairs = new Map<string, string>()
  for (const part of (sent ?? "").split(";")) {
    const eq = part.indexOf("=")
    if (eq > 0) pairs.set(part.slice(0, eq).trim(), part.slice(eq + 1).trim())
  }
  for (const [name, value] of set) {
    if (value === null) pairs.delete(name)
    else pairs.set(name, value)
  }
  const header = [...pairs].map(([name, value]) => `${name}=${value}`).join("; ")
  return header === "" ? null : header
}

/** Remember the cookies of a core answer for the later internal requests of this request. */
function rememberSetCookies(event: RequestEventCommon, headers: Headers): void {
  const lines = headers.getSetCookie()
  if (lines.length === 0) return
  let set = event.sharedMap.get(COOKIES_SET_KEY) as CookiesSet | undefined
  if (!set) {
    set = new Map()
    event.sharedMap.set(COOKIES_SET_KEY, set)
  }
  for (const line of lines) {
    const cookie = parseSetCookie(line)
    if (!cookie) continue
    const cleared = cookie.value === "" || cookie.attributes.maxAge === 0
    set.set(cookie.name, cleared ? null : cookie.value)
  }
}

export function buildCoreRequest(event: RequestEventCommon, call: CoreCall): Request {
  const url = new URL(call.path, event.url.origin)
  if (call.query) url.search = call.query
  const headers = forwardHeaders(event)
  // The action request already passed Qwik City's origin check. Its own `Origin` and
  // `Sec-Fetch-Site` are passed on so the core checks them again (defence in depth, and still
  // right when an app turns `checkOrigin` off). Browsers send `Origin` on every cross-origin
  // POST, so a request without either header cannot be a cross-site forgery: it gets ours.
  const origin = event.request.headers.get("origin")
  const site = event.request.headers.get("sec-fetch-site")
  if (origin !== null) headers.set("origin", origin)
  if (site !== null) headers.set("sec-fetch-site", site)
  if (origin === null && site === null) headers.set("origin", event.url.origin)
  if (call.returnRedirect !== false) headers.set("x-auth-return-redirect", "1")
  const isForm = call.body instanceof URLSearchParams
  headers.set("content-type", isForm ? "application/x-www-form-urlencoded" : "application/json")
  const body = isForm ? call.body.toString() : JSON.stringify(call.body)
  return new Request(url, { method: "POST", headers, body })
}

/** A `GET` of a core JSON endpoint (`path` under the app origin) with the request's cookies. */
export function buildCoreGet(event: RequestEventCommon, path: string): Request {
  const headers = forwardHeaders(event)
  headers.set("accept", "application/json")
  return new Request(new URL(path, event.url.origin), { headers })
}

/** Send `call` (or a built `GET`) to the core, apply its cookies, return the parsed JSON body. */
export async function callCore(
  event: RequestEventCommon,
  config: QwikAuthConfig,
  call: CoreCall | Request,
): Promise<{ status: number; body: unknown }> {
  const request = call instanceof Request ? call : buildCoreRequest(event, call)
  setConnectionIp(request, connectionIp(event))
  // The binding's account actions are calls of the account API: on whatever config they get.
  const response = await Auth(request, withAccountApi(config), {
    waitUntil: platformWaitUntil(event),
  })
  applySetCookieHeaders(event, response.headers)
  rememberSetCookies(event, response.headers)
  const type = response.headers.get("content-type") ?? ""
  const body: unknown = type.includes("application/json") ? await response.json() : null
  return { status: response.status, body }
}

/** The `{url}` the core answers with `X-Auth-Return-Redirect`, or `null`. */
export function redirectUrlOf(result: { status: number; body: unknown }): string | null {
  if (result.status !== 200 || typeof result.body !== "object" || result.body === null) return null
  const url = (result.body as { url?: unknown }).url
  return typeof url === "string" ? url : null
}

/** The address of the client's connection (Qwik City's `clientConn.ip`), if the adapter knows it. */
export function connectionIp(event: RequestEventCommon): string | undefined {
  try {
    return event.clientConn?.ip
  } catch {
    // Some deployment adapters throw when asked for what they cannot know.
    return undefined
  }
}
