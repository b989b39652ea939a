/**
 * One attempt against one rule, with the store's failure decided here for every limit: a
 * store that cannot answer (Redis down) refuses the attempt unless the app chose `failOpen`.
 * Failing closed is the default on sign-in endpoints: an outage must not turn into an
 * unlimited password-guessing window.
 */
import { StoreError } from "../../errors.js"
import type { RateLimitRule, RateLimitStore } from "./store.js"

export type AttemptVerdict =
  | { allowed: true; unavailable?: StoreError }
  | { allowed: false; retryAfterSeconds: number; unavailable?: StoreError }

/** What to wait before retrying when the store could not count: long enough to recover. */
const RETRY_AFTER_OUTAGE_SECONDS = 30

/** Counts one attempt under `key`; `rule === false` allows without counting. */
export async function countAttempt(
  store: RateLimitStore,
  key: string,
  rule: RateLimitRule | false,
  failOpen: boolean | undefined,
): Promise<AttemptVerdict> {
  if (rule === false) return { allowed: true }
  try {
    const result = await store.hit(key, rule.windowMs, rule.limit)
    return result.allowed
      ? { allowed: true }
      : { allowed: false, retryAfterSeconds: result.retryAfterSeconds }
  } catch (cause) {
    const unavailable =
      cause instanceof StoreError
        ? cause
        : new StoreError("The rate-limit store failed", { cause, details: { limit: "hit" } })
    return failOpen
      ? { allowed: true, unavailable }
      : { allowed: false, retryAfterSeconds: RETRY_AFTER_OUTAGE_SECONDS, unavailable }
  }
}
