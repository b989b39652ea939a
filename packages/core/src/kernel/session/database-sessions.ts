/**
 * The point where database sessions join the kernel. A database session is a row of the
 * adapter, so the adapter brings the code that reads and writes it (the adapter feature,
 * `features/adapter/database-session.ts`); the kernel asks for it here, and a JWT-only app
 * bundles none of it. `session.strategy: "database"` without an adapter is a configuration
 * error, so a resolved configuration with that strategy always has it.
 */

import type { ResolvedConfig } from "../config/resolve.js"
import type { AdapterSession, AdapterUser } from "../types/adapters.js"
import type { ResponseCookie } from "../types/cookies.js"
import type { SessionContext, SessionResult, SessionUpdate } from "./context.js"

/** What a new database session records of its sign-in. */
export interface DatabaseSessionFacts {
  userAgent?: string | undefined
  amr?: string[] | undefined
  /** A re-issued session's sign-in time (default: now, a new sign-in). */
  authTime?: number | undefined
}

export interface DatabaseSessions {
  /** Reads the request's session row (and slides it), or clears an unreadable cookie. */
  read(sctx: SessionContext, update: SessionUpdate | undefined): Promise<SessionResult>
  /** A new row for `user` with a fresh token; the request's previous row is deleted. */
  issue(
    sctx: SessionContext,
    user: { id: string; proven: boolean },
    facts?: DatabaseSessionFacts,
  ): Promise<{ cookies: ResponseCookie[]; sessionToken: string; expires: Date }>
}

/** The database sessions the configuration's adapter brought. */
export function databaseSessionsOf(config: Pick<ResolvedConfig, "features">): DatabaseSessions {
  for (const feature of config.features as readonly { databaseSessions?: DatabaseSessions }[]) {
    if (feature.databaseSessions) return feature.databaseSessions
  }
  // Unreachable through Auth(): the configuration check refuses an adapter without its feature.
  throw new TypeError("Database sessions need an adapter that carries its feature")
}

/**
 * The row (and user) a read found, by the session context it read with: `currentSession` acts
 * for the user with the row just read instead of reading it again (one query per request).
 */
const rowsRead = new WeakMap<SessionContext, { session: AdapterSession; user: AdapterUser }>()

/** Records the row a successful read with `sctx` found, as it is after the read. */
export function rememberRowRead(
  sctx: SessionContext,
  found: { session: AdapterSession; user: AdapterUser },
): void {
  rowsRead.set(sctx, found)
}

/** The row the last successful read with `sctx` found, as it is after the read (slid or not). */
export function rowReadWith(
  sctx: SessionContext,
): { session: AdapterSession; user: AdapterUser } | undefined {
  return rowsRead.get(sctx)
}
