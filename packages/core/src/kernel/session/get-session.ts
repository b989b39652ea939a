/**
 * `getSession(request, config)`: the session without an `Auth()` round trip, for framework
 * bindings that need it on every page request. `GET /session` runs the same code.
 */

import type { AuthConfig } from "../config/auth-config.js"
import { type ResolvedConfig, resolveConfig } from "../config/resolve.js"
import { parseCookieHeader } from "../token/cookie-header.js"
import type { CookiesOptions, ResponseCookie } from "../types/cookies.js"
import type { Session } from "../types/records.js"
import { originProtocol } from "../urls/origin.js"
import type { SessionContext } from "./context.js"
import { readSession } from "./read.js"

/**
 * The session of `request`, plus cookies the caller must set (a refreshed token, or deletions
 * of an unreadable one). No `Cookie` header → `{ session: null, cookies: [] }` with no work.
 * Throws `InvalidConfiguration` when the config is unusable.
 */
export async function getSession(
  request: Request,
  config: AuthConfig,
): Promise<{ session: Session | null; cookies: ResponseCookie[] }> {
  const cookieHeader = request.headers.get("cookie")
  if (!cookieHeader) return { session: null, cookies: [] }
  const resolved = resolveConfig(config)
  if (resolved.configError) throw resolved.configError
  return readSession(requestSessionContext(resolved, request, cookieHeader))
}

/** The session context of `request`, for reads outside `Auth()`. */
export function requestSessionContext(
  config: ResolvedConfig,
  request: Request,
  cookieHeader: string,
): SessionContext {
  return {
    config,
    logger: config.logger,
    cookies: cookiesForRequest(config, request),
    requestCookies: parseCookieHeader(cookieHeader),
  }
}

/**
 * The cookie set for this request: `useSecureCookies` if configured, else by the protocol of
 * the app's origin (AUTH_URL, trusted forwarded proto, or the request URL). Reading a session
 * needs no trusted host, only the right cookie name.
 */
export function cookiesForRequest(config: ResolvedConfig, request: Request): CookiesOptions {
  const secure = config.useSecureCookies ?? originProtocol(request, config) === "https:"
  return secure ? config.cookies.secure : config.cookies.insecure
}
