/**
 * Reading the session for ordinary page requests without a full `Auth()` round trip. A request
 * without a session cookie costs one substring search of the `Cookie` header; one with a cookie
 * costs the core's `getSession` (decode, or one adapter call, plus the `session` callback), and
 * cookies are written only when the core re-issues or clears the session.
 */
import type { RequestEventCommon } from "@builder.io/qwik-city"
import { getSession } from "@latchkey/core"
import { applyResponseCookies } from "./cookies.js"
import { setSession } from "./shared-map.js"
import type { QwikAuthConfig } from "./types.js"

const DEFAULT_SESSION_COOKIE = "authjs.session-token"

/**
 * The part of the session cookie's name every variant contains: a configured name, else the
 * default, which is also the tail of `__Secure-authjs.session-token` (https) and the head of the
 * chunk names `<name>.0`, `<name>.1`, ….
 */
export function sessionCookieName(config: QwikAuthConfig): string {
  return config.cookies?.sessionToken?.name ?? DEFAULT_SESSION_COOKIE
}

/**
 * Whether the request may carry a session (whole or chunked as `<name>.0`, `<name>.1`, …). A false
 * positive only costs a `getSession` call that finds nothing.
 */
export function mayHaveSession(request: Request, cookieName: string): boolean {
  return request.headers.get("cookie")?.includes(cookieName) ?? false
}

/** Put this request's session into `sharedMap`, writing re-issued or cleared cookies. */
export async function loadSession(
  event: RequestEventCommon,
  config: QwikAuthConfig,
): Promise<void> {
  if (!mayHaveSession(event.request, sessionCookieName(config))) {
    setSession(event, null)
    return
  }
  const { session, cookies } = await getSession(event.request, config)
  applyResponseCookies(event, cookies)
  setSession(event, session)
}
