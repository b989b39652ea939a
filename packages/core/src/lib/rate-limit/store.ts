/**
 * The contract of Latchkey's shared state. The in-memory store suits one process; an app running
 * several instances plugs in a shared one (`@latchkey/store-redis`, or anything that keeps
 * these promises) through the top-level `store` option.
 *
 * `RateLimitStore` is the part the rate limits need (`hit`); `Store` adds single-use values
 * (consumed OAuth states, locks), and plain values with a time to live (session revocation).
 * Every key a store keeps expires: nothing here is meant to live forever.
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

/**
 * The general store. Every method is atomic per key, and a failure is a thrown error (a
 * `StoreError` from `@latchkey/core/errors` for stores that reach a server), never a hang or a
 * silent default: the caller decides whether to fail closed.
 */
export interface Store extends RateLimitStore {
  /**
   * `true` the first time `key` is seen within `ttlMs`, `false` while it is remembered. Two
   * concurrent calls never both get `true`, so this doubles as a lock acquire (release it
   * with `delete`; the TTL frees a lock whose holder died).
   */
  consumeOnce(key: string, ttlMs: number): Awaitable<boolean>
  /** The value last `set` under `key`, or `null` when absent or expired. */
  get(key: string): Awaitable<string | null>
  /** Stores `value` under `key` for `ttlMs` milliseconds, replacing any previous value. */
  set(key: string, value: string, ttlMs: number): Awaitable<void>
  /** Forgets `key` (a value, a counter or a consumed marker). Absent keys are fine. */
  delete(key: string): Awaitable<void>
  /**
   * Optional (a Redis hash): sets `field` of the map under `key` to `value`, in one atomic step
   * that leaves the other fields alone, and keeps the map at least `ttlMs` longer (never
   * shortens its life). The per-user session list uses it, so two sign-ins at the same
   * instant both stay listed; without it the list is read, changed and written back.
   */
  mapSet?(key: string, field: string, value: string, ttlMs: number): Awaitable<void>
  /** Optional: every field of the map under `key` (`{}` when absent or expired). */
  mapGetAll?(key: string): Awaitable<Record<string, string>>
  /** Optional: removes `fields` from the map under `key`. Absent ones are fine. */
  mapDelete?(key: string, fields: readonly string[]): Awaitable<void>
}

/** One rule: at most `limit` attempts per `windowMs` milliseconds. */
export interface RateLimitRule {
  limit: number
  windowMs: number
}
