/**
 * `requireRecentAuth`: the public entry point of the recent sign-in rule (`recent-auth.ts`) for
 * app code — read the request's session, then apply the rule to it.
 */

import type { AuthConfig, ResponseCookie } from "../config/auth-config.js"
import { resolveConfig } from "../config/resolve.js"
import { SessionRequired } from "../errors/errors.js"
import { requestSessionContext } from "../session/get-session.js"
import { currentSession } from "./current-session.js"
import { assertRecentAuth, type RecentAuthFacts } from "./recent-auth.js"

/** What `requireRecentAuth` resolves to: the signed-in user's id and the sign-in facts. */
export interface RecentAuthSession extends RecentAuthFacts {
  userId: string
  /** Cookies the caller must set (a session re-issued while it was read). */
  cookies: ResponseCookie[]
}

/**
 * The signed-in user of `request` if their sign-in is recent (within `maxAge`, default
 * `session.recentAuthMaxAge`) and had every `factors` method. Throws `SessionRequired` (401)
 * when signed out, `ReauthenticationRequired` (403) when not recent.
 */
export async function requireRecentAuth(
  request: Request,
  config: AuthConfig,
  opts: { maxAge?: number; factors?: readonly string[] } = {},
): Promise<RecentAuthSession> {
  const resolved = resolveConfig(config)
  if (resolved.configError) throw resolved.configError
  const cookieHeader = request.headers.get("cookie")
  if (!cookieHeader) throw new SessionRequired("Sign in to continue")
  const current = await currentSession(requestSessionContext(resolved, request, cookieHeader))
  if (!current.signedIn) throw new SessionRequired("Sign in to continue")
  assertRecentAuth(current.facts, {
    maxAge: opts.maxAge ?? resolved.session.recentAuthMaxAge,
    factors: opts.factors,
  })
  return {
    userId: current.userId,
    authTime: current.facts.authTime,
    amr: current.facts.amr,
    cookies: current.cookies,
  }
}
