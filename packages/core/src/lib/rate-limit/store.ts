/**
 * The contract of a rate-limit store. The in-memory store suits one process; an app running
 * several instances plugs in a shared one (Redis, a KV, a SQL table) by implementing `hit`.
 */
import type { Awaitable } from "../../types.js"

/** The answer to one attempt. */
export interface RateLimitResult {
  /** Whether this attempt is within the limit (it has been counted either way). */
  allowed: boolean
  /** Whole seconds until the window that refused this attempt ends; 0 when allowed. */
  retryAfterSeconds: number
}

export interface RateLimitStore {
  /**
   * Counts one attempt under `key` and says whether it is within `limit` attempts per
   * `windowMs` milliseconds. Must be atomic per key: two concurrent hits never both see the
   * last free slot.
   */
  hit(key: string, windowMs: number, limit: number): Awaitable<RateLimitResult>
}

/** One rule: at most `limit` attempts per `windowMs` milliseconds. */
export interface RateLimitRule {
  limit: number
  windowMs: number
}
