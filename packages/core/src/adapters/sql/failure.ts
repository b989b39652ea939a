/**
 * The `AdapterError` of a failed database call, safe to log: it names the adapter, the method
 * and the driver's error code, and nothing else.
 */
import { AdapterError } from "../../kernel/errors/errors.js"

/** How an adapter names itself in its errors: `PostgresAdapter`, `{ adapter: "postgres" }`. */
export interface AdapterLabel {
  /** The factory's name, first in the message (`DrizzleAdapter.getUser failed: …`). */
  readonly name: string
  /** `details.adapter`. */
  readonly id: string
}

// Codes are SQLSTATEs ("57P01"), MySQL's ("ER_DUP_ENTRY"), SQLite's ("SQLITE_CONSTRAINT") or
// Node's ("ECONNREFUSED"): short identifiers, safe to log. Anything else a driver puts on an
// error is left out of the message.
const safeCode = /^[A-Z0-9_]{1,40}$/i

/** The driver's code, on the error or on its cause (an ORM wraps the driver's error). */
export function safeErrorCode(error: unknown): string | undefined {
  for (let e = error, depth = 0; e && depth < 3; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code
    if (typeof code === "string" && safeCode.test(code)) return code
  }
  return undefined
}

/**
 * Wraps a failure of adapter method `method` in an {@link AdapterError}. `reason` replaces the
 * default one (`database error <code>`), e.g. for a timeout.
 *
 * The error names the method and the code only, and carries no `cause`: a driver's error holds
 * the statement's parameters (session and verification tokens among them) and its message can
 * quote values (`Key ("sessionToken")=(…) already exists`; an ORM's "Failed query: … params:
 * …"). Loggers print causes, so the only safe cause is none.
 */
export function toAdapterError(
  adapter: AdapterLabel,
  method: string,
  error: unknown,
  reason?: string,
): AdapterError {
  if (error instanceof AdapterError) return error
  const code = safeErrorCode(error)
  const why = reason ?? (code ? `database error ${code}` : "database error")
  return new AdapterError(`${adapter.name}.${method} failed: ${why}`, {
    details: { adapter: adapter.id, method, ...(code ? { code } : {}) },
  })
}

/** An `AdapterError` for a refusal the adapter itself makes (no database error behind it). */
export function adapterRefusal(
  adapter: AdapterLabel,
  method: string,
  reason: string,
): AdapterError {
  return new AdapterError(`${adapter.name}.${method} failed: ${reason}`, {
    details: { adapter: adapter.id, method },
  })
}
