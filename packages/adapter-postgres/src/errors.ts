import { AdapterError } from "@latchkey/core/errors"
import { QueryTimeoutError } from "./client.js"

// Codes are SQLSTATEs ("57P01") or Node/pg codes ("ECONNREFUSED"): short identifiers that are
// safe to log. Anything else a driver puts on an error is left out of the message.
const safeCode = /^[A-Z0-9_]{1,40}$/i

function codeOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code
  return typeof code === "string" && safeCode.test(code) ? code : undefined
}

/**
 * Wraps a failure of adapter method `method` in an {@link AdapterError}.
 *
 * The error names the method and the SQL state (or driver code) only, and carries no `cause`:
 * the driver's error holds the statement's parameters (PGlite keeps them on the error; with
 * `hashSessionTokens: false` they are raw session tokens) and its message and `detail` can
 * quote values (`Key ("sessionToken")=(…) already exists`). Loggers print causes, so the only
 * safe cause is none.
 */
export function toAdapterError(method: string, error: unknown): AdapterError {
  if (error instanceof AdapterError) return error
  const code = codeOf(error)
  const reason =
    error instanceof QueryTimeoutError
      ? `no answer within ${error.timeoutMs} ms`
      : code
        ? `database error ${code}`
        : "database error"
  return new AdapterError(`PostgresAdapter.${method} failed: ${reason}`, {
    details: { adapter: "postgres", method, ...(code ? { code } : {}) },
  })
}

/** An `AdapterError` for a refusal the adapter itself makes (no database error behind it). */
export function adapterRefusal(method: string, reason: string): AdapterError {
  return new AdapterError(`PostgresAdapter.${method} failed: ${reason}`, {
    details: { adapter: "postgres", method },
  })
}
