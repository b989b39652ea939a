/**
 * A fixed-window counter per key, in this process's memory.
 *
 * Fixed rather than sliding windows: one integer and one timestamp per key, O(1) per hit. The
 * price is the window edge: a client can spend `limit` at the end of one window and `limit` at
 * the start of the next, so the worst case is 2 × `limit` in any span of `windowMs`. For
 * anti-automation limits (5 mails per address per 15 minutes) that bound is good enough.
 *
 * Memory is bounded: expired entries are swept at most once per `sweepIntervalMs`, and when
 * `maxKeys` live keys exist, the oldest key is evicted to make room. An attacker flooding
 * distinct keys can therefore reset someone else's counter, but cannot exhaust memory; the
 * per-IP limit makes such a flood expensive in the first place.
 */
import type { RateLimitResult, RateLimitStore } from "./store.js"

interface Entry {
  /** When the current window ends (ms since the epoch). */
  resetAt: number
  count: number
}

export interface MemoryRateLimitStoreOptions {
  /** Most keys kept at once. Default 10 000 (about 1 MB). */
  maxKeys?: number
  /** Least time between two sweeps of expired entries. Default 60 s. */
  sweepIntervalMs?: number
  /** Clock, for tests. Default `Date.now`. */
  now?: () => number
}

export class MemoryRateLimitStore implements RateLimitStore {
  readonly #entries = new Map<string, Entry>()
  readonly #maxKeys: number
  readonly #sweepIntervalMs: number
  readonly #now: () => number
  #nextSweep = 0

  constructor(options: MemoryRateLimitStoreOptions = {}) {
    this.#maxKeys = Math.max(1, options.maxKeys ?? 10_000)
    this.#sweepIntervalMs = options.sweepIntervalMs ?? 60_000
    this.#now = options.now ?? Date.now
  }

  /** Number of keys held (live or not yet swept). */
  get size(): number {
    return this.#entries.size
  }

  // Synchronous on purpose: read-modify-write with no `await` in between is atomic in JS.
  hit(key: string, windowMs: number, limit: number): RateLimitResult {
    const now = this.#now()
    this.#sweep(now)
    let entry = this.#entries.get(key)
    if (entry === undefined || entry.resetAt <= now) {
      if (entry !== undefined) this.#entries.delete(key)
      this.#makeRoom()
      entry = { resetAt: now + windowMs, count: 0 }
      // Re-inserted, so Map order stays "oldest window first" for eviction.
      this.#entries.set(key, entry)
    }
    entry.count++
    if (entry.count <= limit) return { allowed: true, retryAfterSeconds: 0 }
    return {
      allowed: false,
      retryAfterSeconds: Math.max(1, Math.ceil((entry.resetAt - now) / 1000)),
    }
  }

  #sweep(now: number): void {
    if (now < this.#nextSweep) return
    this.#nextSweep = now + this.#sweepIntervalMs
    for (const [key, entry] of this.#entries) if (entry.resetAt <= now) this.#entries.delete(key)
  }

  #makeRoom(): void {
    while (this.#entries.size >= this.#maxKeys) {
      const oldest = this.#entries.keys().next()
      if (oldest.done) return
      this.#entries.delete(oldest.value)
    }
  }
}
