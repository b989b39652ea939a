/**
 * The default store: every key in this process's memory. Right for one instance; behind a load
 * balancer each instance would count and remember on its own, so use a shared store there.
 *
 * Rate limits are fixed windows: one integer and one timestamp per key, O(1) per hit. The
 * price is the window edge: a client can spend `limit` at the end of one window and `limit` at
 * the start of the next, so the worst case is 2 × `limit` in any span of `windowMs`. For
 * anti-automation limits (5 mails per address per 15 minutes) that bound is good enough.
 *
 * Memory is bounded, in three parts, because not every key may be forgotten:
 * - **Stranger-keyed counters** (`hit` with `strangerKeyed`: a typed address, a client IP) live
 *   in a part of at most `maxKeys` keys that evicts its oldest key to make room. Anyone can
 *   mint such keys, so a flood can reset other stranger-keyed counters, and nothing else.
 * - **Counters that guard an account** (`hit` with `guardsAccount`: sign-in attempts per account
 *   name) live in a part of their own, at most `maxAccountKeys` keys, that no other traffic
 *   touches. Anyone can mint these too (any name may be typed), so the part still evicts, but
 *   the counter with the fewest attempts first (oldest among equals): a counter holding `n`
 *   failed guesses goes only once every other counter in the part holds at least `n`, which
 *   takes `n × maxAccountKeys` attempts inside its window (issue 42: 10,050 "forgot" requests
 *   used to hand a locked account 10 fresh guesses).
 * - **Security state** (single-use markers, values, maps, per-user counters) lives in a part of
 *   at most `maxProtectedKeys` keys that never evicts a live key: forgetting that a code or a
 *   link was used would make it work again. When it is full after dropping expired keys, a new
 *   key is refused with `StoreFull` (the caller fails closed) until something expires.
 *
 * Expired entries are swept at most once per `sweepIntervalMs`, and when the protected part is
 * full, at most once per expiry (a full store does not rescan itself on every request).
 *
 * Every method is synchronous on purpose: read-modify-write with no `await` in between is
 * atomic in JavaScript.
 */
import { StoreFull } from "../errors/errors.js"
import type { HitOptions, MapBound, RateLimitResult, Store } from "../types/store.js"
import { assertMapBound, assertStoreValue, assertTtl } from "./limits.js"

/** One field of a map: its own expiry, and its rank for a bounded write. */
interface MapField {
  value: string
  expiresAt: number
  rank: number
}

interface Entry {
  /** When the key expires (ms since the epoch): end of the window, or of the TTL. */
  expiresAt: number
  count: number
  value: string | null
  /** The fields of a map (`mapSet`); absent for plain values and counters. */
  fields?: Map<string, MapField>
  /** An account counter's eviction rank: its count, capped at one past its limit. */
  rank?: number
}

export interface MemoryStoreOptions {
  /** Most stranger-keyed counters kept at once (the oldest is evicted). Default 10 000. */
  maxKeys?: number
  /**
   * Most counters that guard an account kept at once (the one with the fewest attempts is
   * evicted). Default 100 000.
   */
  maxAccountKeys?: number
  /** Most keys of security state kept at once (never evicted; `StoreFull` past it). Default 100 000. */
  maxProtectedKeys?: number
  /** Largest value `set` accepts, in UTF-8 bytes. Default 64 KiB. */
  maxValueBytes?: number
  /** Least time between two sweeps of expired entries. Default 60 s. */
  sweepIntervalMs?: number
  /** Clock, for tests. Default `Date.now`. */
  now?: () => number
}

/** @deprecated Use {@link MemoryStoreOptions}. */
export type MemoryRateLimitStoreOptions = MemoryStoreOptions

/** One part of the store: its entries in insertion order (oldest first). */
type Part = Map<string, Entry>

export class MemoryStore implements Store {
  /** Counters whose keys anyone can choose: evicted oldest first when full. */
  readonly #open: Part = new Map()
  /** Counters that guard an account: evicted fewest attempts first, by nothing else. */
  readonly #accounts: Part = new Map()
  /** The keys of `#accounts` by rank, each set oldest first (the next to evict at its front). */
  readonly #ranks = new Map<number, Set<string>>()
  /** Security state: never evicted while live. */
  readonly #protected: Part = new Map()
  readonly #maxKeys: number
  readonly #maxAccountKeys: number
  readonly #maxProtectedKeys: number
  readonly #maxValueBytes: number
  readonly #sweepIntervalMs: number
  readonly #now: () => number
  #nextSweep = 0
  /** The earliest expiry in the protected part (at most): no sweep frees room before it. */
  #nextProtectedExpiry = 0

  constructor(options: MemoryStoreOptions = {}) {
    this.#maxKeys = Math.max(1, options.maxKeys ?? 10_000)
    this.#maxAccountKeys = Math.max(1, options.maxAccountKeys ?? 100_000)
    this.#maxProtectedKeys = Math.max(1, options.maxProtectedKeys ?? 100_000)
    this.#maxValueBytes = options.maxValueBytes ?? 64 * 1024
    this.#sweepIntervalMs = options.sweepIntervalMs ?? 60_000
    this.#now = options.now ?? Date.now
  }

  /** Number of keys held (live or not yet swept), in all three parts. */
  get size(): number {
    return this.#open.size + this.#accounts.size + this.#protected.size
  }

  hit(key: string, windowMs: number, limit: number, options?: HitOptions): RateLimitResult {
    assertTtl(windowMs, "windowMs")
    const now = this.#now()
    const part = options?.guardsAccount
      ? this.#accounts
      : options?.strangerKeyed
        ? this.#open
        : this.#protected
    const entry = this.#live(part, key, now) ?? this.#insert(part, key, now + windowMs, null, now)
    entry.count++
    if (part === this.#accounts) this.#rerank(key, entry, Math.min(entry.count, limit + 1))
    if (entry.count <= limit) return { allowed: true, retryAfterSeconds: 0 }
    return {
      allowed: false,
      retryAfterSeconds: Math.max(1, Math.ceil((entry.expiresAt - now) / 1000)),
    }
  }

  consumeOnce(key: string, ttlMs: number): boolean {
    assertTtl(ttlMs, "ttlMs")
    const now = this.#now()
    if (this.#live(this.#protected, key, now)) return false
    this.#insert(this.#protected, key, now + ttlMs, null, now)
    return true
  }

  get(key: string): string | null {
    return this.#live(this.#protected, key, this.#now())?.value ?? null
  }

  getMany(keys: readonly string[]): (string | null)[] {
    return keys.map((key) => this.get(key))
  }

  set(key: string, value: string, ttlMs: number): void {
    assertTtl(ttlMs, "ttlMs")
    assertStoreValue(value, this.#maxValueBytes)
    const now = this.#now()
    const entry = this.#live(this.#protected, key, now)
    if (entry) {
      // Replaced in place: the key keeps its room, so a full store can still update it.
      entry.value = value
      entry.count = 0
      entry.expiresAt = now + ttlMs
      delete entry.fields
      this.#nextProtectedExpiry = Math.min(this.#nextProtectedExpiry, entry.expiresAt)
      return
    }
    this.#insert(this.#protected, key, now + ttlMs, value, now)
  }

  delete(key: string): void {
    this.#protected.delete(key)
    this.#open.delete(key)
    this.#dropAccount(key)
  }

  mapSet(key: string, field: string, value: string, ttlMs: number, bound?: MapBound): void {
    assertTtl(ttlMs, "ttlMs")
    assertStoreValue(value, this.#maxValueBytes)
    assertMapBound(bound)
    const now = this.#now()
    const entry =
      this.#live(this.#protected, key, now) ??
      this.#insert(this.#protected, key, now + ttlMs, null, now)
    entry.fields ??= new Map()
    const rank = bound?.rank ?? entry.fields.get(field)?.rank ?? 0
    entry.fields.set(field, { value, expiresAt: now + ttlMs, rank })
    entry.expiresAt = Math.max(entry.expiresAt, now + ttlMs)
    if (bound && entry.fields.size > bound.maxFields) trimFields(entry.fields, bound.maxFields, now)
  }

  mapGet(key: string, field: string): string | null {
    const now = this.#now()
    const found = this.#live(this.#protected, key, now)?.fields?.get(field)
    return found && found.expiresAt > now ? found.value : null
  }

  mapGetAll(key: string): Record<string, string> {
    const now = this.#now()
    const fields = this.#live(this.#protected, key, now)?.fields
    if (!fields) return {}
    const out: Record<string, string> = {}
    for (const [name, f] of fields) {
      if (f.expiresAt > now) out[name] = f.value
      else fields.delete(name)
    }
    return out
  }

  mapDelete(key: string, fields: readonly string[]): void {
    const entry = this.#live(this.#protected, key, this.#now())
    if (!entry?.fields) return
    for (const field of fields) entry.fields.delete(field)
    if (entry.fields.size === 0) this.#protected.delete(key)
  }

  /** The entry under `key` if it has not expired; an expired one is dropped. */
  #live(part: Part, key: string, now: number): Entry | undefined {
    this.#sweep(now, false)
    const entry = part.get(key)
    if (entry === undefined) return undefined
    if (entry.expiresAt > now) return entry
    if (part === this.#accounts) this.#dropAccount(key)
    else part.delete(key)
    return undefined
  }

  // Inserted last, so Map order stays "oldest first" for eviction.
  #insert(part: Part, key: string, expiresAt: number, value: string | null, now: number): Entry {
    if (part === this.#open) this.#evictOpen()
    else if (part === this.#accounts) this.#evictAccount()
    else {
      this.#ensureProtectedRoom(now)
      this.#nextProtectedExpiry = Math.min(this.#nextProtectedExpiry, expiresAt)
    }
    const entry: Entry = { expiresAt, count: 0, value }
    part.set(key, entry)
    return entry
  }

  #evictOpen(): void {
    while (this.#open.size >= this.#maxKeys) {
      const oldest = this.#open.keys().next()
      if (oldest.done) return
      this.#open.delete(oldest.value)
    }
  }

  /** Room for one more account counter: the one with the lowest rank goes, oldest among equals. */
  #evictAccount(): void {
    while (this.#accounts.size >= this.#maxAccountKeys) {
      const lowest = Math.min(...this.#ranks.keys())
      const oldest = this.#ranks.get(lowest)?.values().next()
      if (oldest === undefined || oldest.done) return
      this.#dropAccount(oldest.value)
    }
  }

  /** Files an account counter under `rank`, last (newest) among its equals. */
  #rerank(key: string, entry: Entry, rank: number): void {
    if (entry.rank === rank) return
    if (entry.rank !== undefined) this.#unrank(key, entry.rank)
    entry.rank = rank
    let keys = this.#ranks.get(rank)
    if (!keys) {
      keys = new Set()
      this.#ranks.set(rank, keys)
    }
    keys.add(key)
  }

  #unrank(key: string, rank: number): void {
    const keys = this.#ranks.get(rank)
    keys?.delete(key)
    if (keys?.size === 0) this.#ranks.delete(rank)
  }

  #dropAccount(key: string): void {
    const entry = this.#accounts.get(key)
    if (entry === undefined) return
    this.#accounts.delete(key)
    if (entry.rank !== undefined) this.#unrank(key, entry.rank)
  }

  /** Room for one more protected key, or `StoreFull`: a live marker is never dropped. */
  #ensureProtectedRoom(now: number): void {
    if (this.#protected.size < this.#maxProtectedKeys) return
    if (now >= this.#nextProtectedExpiry) this.#sweep(now, true)
    if (this.#protected.size < this.#maxProtectedKeys) return
    throw new StoreFull(
      `The memory store holds ${this.#maxProtectedKeys} live keys of security state (maxProtectedKeys) and evicts none of them: refused until one expires`,
      { details: { operation: "insert", maxProtectedKeys: this.#maxProtectedKeys } },
    )
  }

  #sweep(now: number, force: boolean): void {
    if (!force && now < this.#nextSweep) return
    this.#nextSweep = now + this.#sweepIntervalMs
    for (const [key, entry] of this.#open) if (entry.expiresAt <= now) this.#open.delete(key)
    for (const [key, entry] of this.#accounts) if (entry.expiresAt <= now) this.#dropAccount(key)
    let earliest = Number.POSITIVE_INFINITY
    for (const [key, entry] of this.#protected) {
      if (entry.expiresAt <= now) this.#protected.delete(key)
      else earliest = Math.min(earliest, entry.expiresAt)
    }
    this.#nextProtectedExpiry = earliest
  }
}

/** Drops expired fields, then the lowest-ranked, until at most `max` remain. */
function trimFields(fields: Map<string, MapField>, max: number, now: number): void {
  for (const [name, f] of fields) if (f.expiresAt <= now) fields.delete(name)
  if (fields.size <= max) return
  const byRank = [...fields].sort(([, a], [, b]) => a.rank - b.rank)
  for (const [name] of byRank.slice(0, fields.size - max)) fields.delete(name)
}

/** @deprecated The memory store does more than rate limits now: use {@link MemoryStore}. */
export const MemoryRateLimitStore = MemoryStore
/** @deprecated Use {@link MemoryStore}. */
export type MemoryRateLimitStore = MemoryStore

// One store per app (per signing secret), not per config object: frameworks (Qwik's
// `QwikAuth$(configFn)`) may build the config on every request, and a store created with it
// would start empty each time. Not one per process either: two apps in one process would share
// counters and markers, and their user ids (`session-version:1`) could collide. Two configs
// with the same secret accept each other's tokens, so they are one app as far as state goes.
const defaultStores = new Map<string, MemoryStore>()
const defaults = new WeakSet<Store>()

/**
 * The in-memory store used when none is configured: one per signing secret (`secret`, the
 * first of `config.secret`), created on first use.
 */
export function defaultStore(secret = ""): MemoryStore {
  let store = defaultStores.get(secret)
  if (!store) {
    store = new MemoryStore()
    defaultStores.set(secret, store)
    defaults.add(store)
  }
  return store
}

/** Whether `store` is one of the default memory stores (no store was configured). */
export function isDefaultStore(store: Store): boolean {
  return defaults.has(store)
}
