/**
 * Recent sign-in: whether the session's sign-in (`auth_time`, and how: `amr`) is fresh enough
 * for a sensitive change (deleting a passkey, ending sessions, unlinking a provider, turning
 * off a second factor). One rule for every caller: the account API, two-factor settings and
 * app code through `requireRecentAuth`.
 *
 * A session whose sign-in time is unknown (issued by Auth.js, or before Latchkey recorded it) is
 * never recent: re-issuing it does not make it so. A database session of an adapter without the
 * columns (an Auth.js adapter) carries its facts in its token (`session/token-facts.ts`).
 */

import { ReauthenticationRequired } from "../errors/errors.js"
import { nowSeconds } from "../runtime/time.js"
import { tokenFacts } from "../session/token-facts.js"
import type { AdapterSession } from "../types/adapters.js"

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

/**
 * The sign-in facts of a database session: the row's optional `authTime` and `amr` columns, else
 * what its token carries.
 */
export function databaseSessionFacts(session: AdapterSession): RecentAuthFacts {
  const time = session.authTime
  if (time instanceof Date && !Number.isNaN(time.getTime())) {
    return {
      authTime: Math.floor(time.getTime() / 1000),
      amr: Array.isArray(session.amr) ? session.amr : undefined,
    }
  }
  const carried = tokenFacts(session.sessionToken)
  if (carried) return { authTime: carried.authTime, amr: carried.amr }
  return { authTime: undefined, amr: Array.isArray(session.amr) ? session.amr : undefined }
}
