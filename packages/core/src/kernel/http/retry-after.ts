/**
 * `Retry-After` for refusals that end by themselves: a rate limit (the window's remaining
 * seconds) and a store that cannot answer (a short fixed wait). The page flow carries the
 * seconds to the error page as `retryAfter=`, so the page a person lands on has the header too.
 */
import { type AuthError, StoreError } from "../errors/errors.js"

/** What a client is told to wait while the store cannot answer: long enough to reconnect. */
export const STORE_OUTAGE_RETRY_AFTER_SECONDS = 30

/** The longest wait we repeat from a query string (a day): anything else is not ours. */
const MAX_RETRY_AFTER_SECONDS = 24 * 60 * 60

/** Seconds to wait before retrying after `error`, or `undefined` when retrying will not help. */
export function retryAfterOf(error: AuthError): number | undefined {
  if (error instanceof StoreError) return STORE_OUTAGE_RETRY_AFTER_SECONDS
  if (error.type !== "RateLimited") return undefined
  return parseRetryAfter(error.details?.retryAfterSeconds) ?? STORE_OUTAGE_RETRY_AFTER_SECONDS
}

/** A whole number of seconds within bounds, from a number or a query-string value. */
export function parseRetryAfter(value: unknown): number | undefined {
  const n = typeof value === "string" && /^\d{1,6}$/.test(value) ? Number(value) : value
  if (typeof n !== "number" || !Number.isInteger(n)) return undefined
  return n >= 1 && n <= MAX_RETRY_AFTER_SECONDS ? n : undefined
}

/** The header for an outcome, or none. */
export function retryAfterHeader(seconds: number | undefined): Record<string, string> | undefined {
  return seconds === undefined ? undefined : { "Retry-After": String(seconds) }
}
