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

type RowRead = { session: AdapterSession; user: AdapterUser }

/**
 * The row (and user) a read found, by the session context it read with: `currentSession` acts
 * for the user with the row just read instead of reading it again (one query per request). One
 * map for every copy of this module: an app that bundles the core while an adapter package
 * loads its own from `node_modules` reads with one copy and acts with the other.
 */
const ROWS_READ = Symbol.for("latchkey.database-session-rows-read")

function rowsRead(): WeakMap<SessionContext, RowRead> {
  const shared = globalThis as { [ROWS_READ]?: WeakMap<SessionContext, RowRead> }
  shared[ROWS_READ] ??= new WeakMap()
  return shared[ROWS_READ]
}

/** Records the row a successful read with `sctx` found, as it is after the read. */
export function rememberRowRead(sctx: SessionContext, found: RowRead): void {
  rowsRead().set(sctx, found)
}

/** The row the last successful read with `sctx` found, as it is after the read (slid or not). */
export function rowReadWith(sctx: SessionContext): RowRead | undefined {
  return rowsRead().get(sctx)
}
