/**
 * The default store: every key in this process's memory. Right for one instance; behind a load
 * balancer each instance would count and remember on its own, so use a shared store there.
 *
 * Rate limits are fixed windows: one integer and one timestamp per key, O(1) per hit. The
 * price is the window edge: a client can spend `limit` at the end of one window and `limit` at
 * the start of the next, so the worst case is 2 × `limit` in any span of `windowMs`. For
 * anti-automation limits (5 mails per address per 15 minutes) that bound is good enough.
 *
 * Memory is bounded: expired entries are swept at most once per `sweepIntervalMs`, and when
 * `maxKeys` live keys exist, the oldest key is evicted to make room. An attacker flooding
 * distinct keys can therefore reset someone else's counter, but cannot exhaust memory; the
 * per-IP limit makes such a flood expensive in the first place. Values are bounded too.
 *
 * Every method is synchronous on purpose: read-modify-write with no `await` in between is
 * atomic in JavaScript.
 */
import { assertStoreValue, assertTtl } from "./limits.js"
import type { RateLimitResult, Store } from "./store.js"

interface Entry {
  /** When the key expires (ms since the epoch): end of the window, or of the TTL. */
  expiresAt: number
  count: number
  value: string | null
  /** The fields of a map (`mapSet`); absent for plain values and counters. */
  fields?: Map<string, string>
}

export interface MemoryStoreOptions {
  /** Most keys kept at once. Default 10 000. */
  maxKeys?: number
  /** Largest value `set` accepts, in UTF-8 bytes. Default 64 KiB. */
  maxValueBytes?: number
  /** Least time between two sweeps of expired entries. Default 60 s. */
  sweepIntervalMs?: number
  /** Clock, for tests. Default `Date.now`. */
  now?: () => number
}

/** @deprecated Use {@link MemoryStoreOptions}. */
export type MemoryRateLimitStoreOptions = MemoryStoreOptions

export class MemoryStore implements Store {
  readonly #entries = new Map<string, Entry>()
  readonly #maxKeys: number
  readonly #maxValueBytes: number
  readonly #sweepIntervalMs: number
  readonly #now: () => number
  #nextSweep = 0

  constructor(options: MemoryStoreOptions = {}) {
    this.#maxKeys = Math.max(1, options.maxKeys ?? 10_000)
    this.#maxValueBytes = options.maxValueBytes ?? 64 * 1024
    this.#sweepIntervalMs = options.sweepIntervalMs ?? 60_000
    this.#now = options.now ?? Date.now
  }

  /** Number of keys held (live or not yet swept). */
  get size(): number {
    return this.#entries.size
  }

  hit(key: string, windowMs: number, limit: number): RateLimitResult {
    assertTtl(windowMs, "windowMs")
    const now = this.#now()
    const entry = this.#live(key, now) ?? this.#insert(key, now + windowMs, null)
    entry.count++
    if (entry.count <= limit) return { allowed: true, retryAfterSeconds: 0 }
    return {
      allowed: false,
      retryAfterSeconds: Math.max(1, Math.ceil((entry.expiresAt - now) / 1000)),
    }
  }

  consumeOnce(key: string, ttlMs: number): boolean {
    assertTtl(ttlMs, "ttlMs")
    const now = this.#now()
    if (this.#live(key, now)) return false
    this.#insert(key, now + ttlMs, null)
    return true
  }

  get(key: string): string | null {
    return this.#live(key, this.#now())?.value ?? null
  }

  set(key: string, value: string, ttlMs: number): void {
    assertTtl(ttlMs, "ttlMs")
    assertStoreValue(value, this.#maxValueBytes)
    const now = this.#now()
    this.#entries.delete(key)
    this.#insert(key, now + ttlMs, value)
  }

  delete(key: string): void {
    this.#entries.delete(key)
  }

  mapSet(key: string, field: string, value: string, ttlMs: number): void {
    assertTtl(ttlMs, "ttlMs")
    assertStoreValue(value, this.#maxValueBytes)
    const now = this.#now()
    const entry = this.#live(key, now) ?? this.#insert(key, now + ttlMs, null)
    entry.fields ??= new Map()
    entry.fields.set(field, value)
    entry.expiresAt = Math.max(entry.expiresAt, now + ttlMs)
  }

  mapGetAll(key: string): Record<string, string> {
    const fields = this.#live(key, this.#now())?.fields
    return fields ? Object.fromEntries(fields) : {}
  }

  mapDelete(key: string, fields: readonly string[]): void {
    const entry = this.#live(key, this.#now())
    if (!entry?.fields) return
    for (const field of fields) entry.fields.delete(field)
    if (entry.fields.size === 0) this.#entries.delete(key)
  }

  /** The entry under `key` if it has not expired; an expired one is dropped. */
  #live(key: string, now: number): Entry | undefined {
    this.#sweep(now)
    const entry = this.#entries.get(key)
    if (entry === undefined) return undefined
    if (entry.expiresAt > now) return entry
    this.#entries.delete(key)
    return undefined
  }

  // Inserted last, so Map order stays "oldest first" for eviction.
  #insert(key: string, expiresAt: number, value: string | null): Entry {
    this.#makeRoom()
    const entry: Entry = { expiresAt, count: 0, value }
    this.#entries.set(key, entry)
    return entry
  }

  #sweep(now: number): void {
    if (now < this.#nextSweep) return
    this.#nextSweep = now + this.#sweepIntervalMs
    for (const [key, entry] of this.#entries) if (entry.expiresAt <= now) this.#entries.delete(key)
  }

  #makeRoom(): void {
    while (this.#entries.size >= this.#maxKeys) {
      const oldest = this.#entries.keys().next()
      if (oldest.done) return
      this.#entries.delete(oldest.value)
    }
  }
}

/** @deprecated The memory store does more than rate limits now: use {@link MemoryStore}. */
export const MemoryRateLimitStore = MemoryStore
/** @deprecated Use {@link MemoryStore}. */
export type MemoryRateLimitStore = MemoryStore

// One store per process, not per config object: frameworks (Qwik's `QwikAuth$(configFn)`)
// may build the config on every request; a store created with it would start empty each time
// and never limit or remember anything.
let sharedStore: MemoryStore | undefined

/** The in-memory store used when none is configured (one per process). */
export function defaultStore(): MemoryStore {
  sharedStore ??= new MemoryStore()
  return sharedStore
}
