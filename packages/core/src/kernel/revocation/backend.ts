/**
 * Where revocation state lives, behind one small interface: a shared store (`config.store`,
 * e.g. Redis), or the adapter's optional revocation methods (a database, no Redis needed).
 *
 * The state is two facts:
 * - revoked session ids (`sid`), each remembered until the longest a token could still live;
 * - a per-user session version. A session carries the version current at its sign-in (`sv`)
 *   and is revoked once the user's version is higher ("sign out everywhere").
 *
 * Why both may expire: a token only outlives its `exp` by being re-issued, and a re-issue
 * checks revocation first. So a revoked id, or a version bump, that is remembered for the
 * token lifetime (`maxAge`) has outlived every token it could refuse.
 */

/** One session of a user, for a "your devices" page. Holds no token. */
export interface SessionRecord {
  /** The session id (`sid` claim; an opaque id): pass it to `revokeSession`. */
  sid: string
  userId: string
  /** When the user signed in (seconds since the epoch). */
  authTime: number
  /** When the session ends unless renewed (seconds since the epoch). */
  expires: number
  /** When the session was last re-issued (seconds since the epoch); absent: not since sign-in. */
  lastSeen?: number
  /** Coarse user agent at sign-in ("Firefox on Linux"). */
  userAgent?: string
}

export interface RevocationVerdict {
  revoked: boolean
  /** Why, for logs: an ended session id, or a newer user session version. */
  reason?: "sid" | "user-version"
}

export interface RevocationBackend {
  /** Whether session `sid` of `userId`, signed in at version `sv`, has been revoked. */
  check(sid: string | undefined, userId: string | undefined, sv: number): Promise<RevocationVerdict>
  /** The user's current session version (0 when never bumped): a new session carries it. */
  userVersion(userId: string): Promise<number>
  /** Ends one session until `untilSeconds` (its last possible expiry). */
  revokeSession(sid: string, untilSeconds: number): Promise<void>
  /** Ends every session of the user signed in so far. */
  revokeUserSessions(userId: string): Promise<void>
  /** Remembers a new session for `listSessions`. */
  recordSession(record: SessionRecord): Promise<void>
  /** The user's sessions that are neither expired nor revoked. */
  listSessions(userId: string): Promise<SessionRecord[]>
}
