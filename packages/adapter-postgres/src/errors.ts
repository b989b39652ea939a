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
 * The message names the method and the kind of failure only. It never quotes the driver's
 * message, which can repeat parameter values (PostgreSQL's `invalid input syntax for type
 * integer: "<value>"`) — and parameters are session and verification tokens. The original error
 * is kept as `cause`, for logs that choose to show it.
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
    cause: error,
    details: { adapter: "postgres", method, ...(code ? { code } : {}) },
  })
}

/** An `AdapterError` for a refusal the adapter itself makes (no database error behind it). */
export function adapterRefusal(method: string, reason: string): AdapterError {
  return new AdapterError(`PostgresAdapter.${method} failed: ${reason}`, {
    details: { adapter: "postgres", method },
  })
}
