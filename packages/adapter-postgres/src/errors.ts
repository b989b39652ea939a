import {
  adapterRefusal as refusal,
  safeErrorCode,
  toAdapterError as wrap,
} from "@latchkey/core/adapters/sql"
import type { AdapterError } from "@latchkey/core/errors"
import { QueryTimeoutError } from "./client.js"

const label = { name: "PostgresAdapter", id: "postgres" }

/**
 * Wraps a failure of adapter method `method` in an `AdapterError` naming the method and the
 * SQL state (or driver code) only, with no `cause`: see `toAdapterError` in
 * `@latchkey/core/adapters/sql` (PGlite keeps the parameters on its error; with
 * `hashSessionTokens: false` they are raw session tokens).
 */
export function toAdapterError(method: string, error: unknown): AdapterError {
  const reason =
    error instanceof QueryTimeoutError
      ? `no answer within ${error.timeoutMs} ms`
      : filesUnreachable(safeErrorCode(error))
  return wrap(label, method, error, reason)
}

/** The file-system errors of a database that cannot open its files (or a socket path). */
const FILE_ERRORS = new Set(["ENOENT", "ENOTDIR", "EACCES", "EPERM", "EROFS"])

/**
 * What a file-system code means here. Seen as `ENOENT` from PGlite built into a Cloudflare
 * Pages app, where "database error ENOENT" alone sent people looking for a missing table.
 */
function filesUnreachable(code: string | undefined): string | undefined {
  if (!code || !FILE_ERRORS.has(code)) return undefined
  return `database error ${code}: the database's files (or a pg socket path) could not be opened. PGlite needs a writable data directory, which a runtime without a filesystem (Cloudflare Workers and Pages, Vercel Edge) cannot give it: use @latchkey/adapter-drizzle over D1, or a hosted PostgreSQL, there`
}

/** An `AdapterError` for a refusal the adapter itself makes (no database error behind it). */
export function adapterRefusal(method: string, reason: string): AdapterError {
  return refusal(label, method, reason)
}
