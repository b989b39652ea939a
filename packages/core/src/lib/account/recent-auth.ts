/**
 * Recent sign-in: whether the session's sign-in (`auth_time`, and how: `amr`) is fresh enough
 * for a sensitive change (deleting a passkey, ending sessions, unlinking a provider, turning
 * off a second factor). One rule for every caller: the account API, two-factor settings and
 * app code through `requireRecentAuth`.
 *
 * A session whose sign-in time is unknown (issued by Auth.js, or a database row from an
 * adapter without the column) is never recent: re-issuing it does not make it so.
 */
import type { AdapterSession } from "../../adapters.js"
import { ReauthenticationRequired, SessionRequired } from "../../errors.js"
import type { AuthConfig, ResponseCookie } from "../../types.js"
import { resolveConfig } from "../config/resolve.js"
import { requestSessionContext } from "../session/get-session.js"
import { nowSeconds } from "../time.js"
import { currentSession } from "./current-session.js"

/** What a session knows about its sign-in. */
export interface RecentAuthFacts {
  /** Sign-in time, seconds since the epoch; absent when unknown. */
  authTime?: number | undefined
  /** Authentication methods of the sign-in (RFC 8176 values). */
  amr?: readonly string[] | undefined
}

export interface RecentAuthPolicy {
  /** Seconds after `authTime` during which the sign-in counts as recent. */
  maxAge: number
  /** `amr` values that must all be present (e.g. `["otp"]`). */
  factors?: readonly string[] | undefined
}

export type RecentAuthVerdict =
  | { recent: true }
  | { recent: false; reason: "stale" | "missing-factor" | "unknown" }

/** The verdict on `facts` at `now` (seconds). Unknown beats stale beats a missing factor. */
export function recentAuthVerdict(
  facts: RecentAuthFacts,
  policy: RecentAuthPolicy,
  now: number = nowSeconds(),
): RecentAuthVerdict {
  const { authTime, amr } = facts
  if (typeof authTime !== "number" || !Number.isFinite(authTime)) {
    return { recent: false, reason: "unknown" }
  }
  if (now - authTime > policy.maxAge) return { recent: false, reason: "stale" }
  const factors = policy.factors ?? []
  if (factors.some((f) => !amr?.includes(f))) return { recent: false, reason: "missing-factor" }
  return { recent: true }
}

/** Throws `ReauthenticationRequired` (403, `details.reason`) unless the verdict is recent. */
export function assertRecentAuth(facts: RecentAuthFacts, policy: RecentAuthPolicy): void {
  const verdict = recentAuthVerdict(facts, policy)
  if (verdict.recent) return
  throw new ReauthenticationRequired(
    verdict.reason === "unknown"
      ? "This session's sign-in time is unknown: sign in again to continue"
      : verdict.reason === "stale"
        ? "The last sign-in is too long ago for this change: sign in again to continue"
        : "This change needs a sign-in with another factor: sign in again with it",
    { details: { reason: verdict.reason } },
  )
}

/** The sign-in facts of a database session row (`authTime`, `amr` are optional columns). */
export function databaseSessionFacts(session: AdapterSession): RecentAuthFacts {
  const time = session.authTime
  return {
    authTime:
      time instanceof Date && !Number.isNaN(time.getTime())
        ? Math.floor(time.getTime() / 1000)
        : undefined,
    amr: Array.isArray(session.amr) ? session.amr : undefined,
  }
}

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
