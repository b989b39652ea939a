/**
 * The contract of Latchkey's shared state. The in-memory store suits one process; an app running
 * several instances plugs in a shared one (`@latchkey/store-redis`, or anything that keeps
 * these promises) through the top-level `store` option.
 *
 * `RateLimitStore` is the part the rate limits need (`hit`); `Store` adds single-use values
 * (consumed OAuth states, locks), and plain values with a time to live (session revocation).
 * Every key a store keeps expires: nothing here is meant to live forever.
 *
 * Security state (single-use markers, values, maps, counters hit without `strangerKeyed`) is
 * never evicted to make room: a store that is full fails the write with a `StoreError`
 * (`StoreFull` for the memory store) instead. Only stranger-keyed counters may be forgotten
 * early, so a flood of invented addresses can only ever reset other invented addresses; those
 * that guard an account (`guardsAccount`) are forgotten last, fewest attempts first.
 */
import type { Awaitable } from "./awaitable.js"

/** The answer to one attempt. */
export interface RateLimitResult {
  /** Whether this attempt is within the limit (it has been counted either way). */
  allowed: boolean
  /** Whole seconds until the window that refused this attempt ends; 0 when allowed. */
  retryAfterSeconds: number
}

/** How a counter may be treated when a store is short of room. */
export interface HitOptions {
  /**
   * The key is chosen by whoever sends the request (an address typed into a form, a client IP).
   * A store short of room may forget such counters, and only such counters. Default `false`: a
   * per-user counter (second-factor attempts) is security state and is never evicted.
   */
  strangerKeyed?: boolean
  /**
   * With `strangerKeyed`: the counter guards an account (sign-in attempts on the account name
   * typed). Anyone can mint such keys, yet forgetting a live one hands that account fresh
   * guesses. A store short of room keeps these apart from every other counter, so no other
   * traffic can push one out, and forgets the one with the fewest attempts first (oldest among
   * equals): a counter is forgotten only once every other has at least as many attempts.
   */
  guardsAccount?: boolean
}

export interface RateLimitStore {
  /**
   * Counts one attempt under `key` and says whether it is within `limit` attempts per
   * `windowMs` milliseconds. Must be atomic per key: two concurrent hits never both see the
   * last free slot.
   */
  hit(
    key: string,
    windowMs: number,
    limit: number,
    options?: HitOptions,
  ): Awaitable<RateLimitResult>
}

/** The bound a map write keeps (`mapSet`). */
export interface MapBound {
  /** Most fields the map keeps after this write. */
  maxFields: number
  /** This field's rank: when the map would hold more than `maxFields`, the lowest ranks go first. */
  rank: number
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
  /**
   * Optional: the values of several keys (each as `get` would give it) in one call. A networked
   * store that has it answers a strict session read's two lookups in one command.
   */
  getMany?(keys: readonly string[]): Awaitable<(string | null)[]>
  /** Stores `value` under `key` for `ttlMs` milliseconds, replacing any previous value. */
  set(key: string, value: string, ttlMs: number): Awaitable<void>
  /** Forgets `key` (a value, a counter or a consumed marker). Absent keys are fine. */
  delete(key: string): Awaitable<void>
  /**
   * Optional (a Redis hash): sets `field` of the map under `key` to `value`, in one atomic step
   * that leaves the other fields alone. Every field lives `ttlMs` from its own write; a field
   * past that is gone to every read, and the map lives as long as its longest-lived field.
   * With `bound`, the same atomic step removes the expired fields, then the lowest-ranked ones,
   * until at most `bound.maxFields` remain: a map written on every sign-in stays bounded
   * however often one user signs in. The per-user session list uses it, so two sign-ins at the
   * same instant both stay listed; without it the list is read, changed and written back.
   */
  mapSet?(
    key: string,
    field: string,
    value: string,
    ttlMs: number,
    bound?: MapBound,
  ): Awaitable<void>
  /** Optional: one field of the map under `key` (as `mapGetAll` would give it), or `null`. */
  mapGet?(key: string, field: string): Awaitable<string | null>
  /** Optional: every live field of the map under `key` (`{}` when absent or expired). */
  mapGetAll?(key: string): Awaitable<Record<string, string>>
  /** Optional: removes `fields` from the map under `key`. Absent ones are fine. */
  mapDelete?(key: string, fields: readonly string[]): Awaitable<void>
}

/** One rule: at most `limit` attempts per `windowMs` milliseconds. */
export interface RateLimitRule {
  limit: number
  windowMs: number
}
