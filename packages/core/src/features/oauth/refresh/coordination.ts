/**
 * What keeps concurrent refreshes of one refresh token to one token-endpoint call:
 *
 * - in this process, a promise map: the first caller for a key runs the refresh, every caller
 *   that arrives while it runs awaits the same promise (no store round trip);
 * - across instances, a lock in the configured store (`consumeOnce` acquires, `delete`
 *   releases, the TTL frees the lock of an instance that died mid-refresh);
 * - a grace entry in the store: once a refresh token has been spent, its outcome (the successor
 *   tokens, or the refusal) is kept for `graceMs`, so a request that still holds the spent
 *   token (an old session cookie, a row read just before the rotation, another instance
 *   waiting on the lock) gets the successor instead of spending a rotated-out token.
 *
 * Keys are a SHA-256 of provider id and refresh token: the token itself is never a key, and
 * grace entries are sealed like tokens at rest, so the store never holds a readable token.
 * Without a shared store (the default `MemoryStore`) the lock and the grace window hold within
 * one process only.
 */

import { sha256Base64Url } from "../../../kernel/crypto/digest.js"
import type { Store } from "../../../kernel/types/store.js"
import { openToken, sealToken } from "./at-rest.js"
import type { ProviderTokens } from "./tokens.js"

/** A spent refresh token's outcome. */
export type GraceEntry = { ok: true; tokens: ProviderTokens } | { ok: false }

const LOCK_PREFIX = "latchkey:refresh-lock:"
const GRACE_PREFIX = "latchkey:refresh-grace:"
/** How often an instance waiting on another one's lock looks for its outcome. */
const POLL_MS = 50

export function flightKey(providerId: string, refreshToken: string): Promise<string> {
  return sha256Base64Url(`${providerId}\u0000${refreshToken}`)
}

const flights = new Map<string, Promise<unknown>>()

/** Run `refresh` for `key` unless a run for it is in progress here; then share its result. */
export function singleFlight<T>(key: string, refresh: () => Promise<T>): Promise<T> {
  const running = flights.get(key) as Promise<T> | undefined
  if (running) return running
  const promise = refresh().finally(() => flights.delete(key))
  flights.set(key, promise)
  return promise
}

export interface Coordination {
  readonly store: Store
  readonly secret: readonly string[]
  readonly graceMs: number
}

export async function rememberOutcome(
  c: Coordination,
  key: string,
  entry: GraceEntry,
): Promise<void> {
  if (c.graceMs <= 0) return
  await c.store.set(
    `${GRACE_PREFIX}${key}`,
    await sealToken(c.secret, JSON.stringify(entry)),
    c.graceMs,
  )
}

export async function recallOutcome(c: Coordination, key: string): Promise<GraceEntry | undefined> {
  const opened = await openToken(c.secret, await c.store.get(`${GRACE_PREFIX}${key}`))
  if (!opened) return undefined
  try {
    const entry = JSON.parse(opened) as GraceEntry
    return entry && typeof entry === "object" && typeof entry.ok === "boolean" ? entry : undefined
  } catch {
    return undefined
  }
}

/**
 * Run `refresh` holding the store lock of `key`. When another instance holds it, wait up to
 * `waitMs` for that instance's outcome instead; `undefined` when none came.
 */
export async function withRefreshLock<T>(
  c: Coordination,
  key: string,
  waitMs: number,
  refresh: () => Promise<T>,
  fromOutcome: (entry: GraceEntry) => T,
): Promise<T | undefined> {
  const lock = `${LOCK_PREFIX}${key}`
  // The lock outlives the longest refresh, so it is never freed under a running one.
  if (await c.store.consumeOnce(lock, waitMs + 1000)) {
    try {
      // The previous holder may have finished between our look-up and this lock.
      const done = await recallOutcome(c, key)
      return done ? fromOutcome(done) : await refresh()
    } finally {
      await c.store.delete(lock)
    }
  }
  const until = Date.now() + waitMs
  while (Date.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS))
    const entry = await recallOutcome(c, key)
    if (entry) return fromOutcome(entry)
  }
  return undefined
}
