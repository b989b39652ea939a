import { adapterRefusal as refusal, toAdapterError as wrap } from "@latchkey/core/adapters/sql"
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
    error instanceof QueryTimeoutError ? `no answer within ${error.timeoutMs} ms` : undefined
  return wrap(label, method, error, reason)
}

/** An `AdapterError` for a refusal the adapter itself makes (no database error behind it). */
export function adapterRefusal(method: string, reason: string): AdapterError {
  return refusal(label, method, reason)
}
