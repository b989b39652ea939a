/**
 * What keeps concurrent refreshes of one refresh token to one token-endpoint call, in this
 * process:
 *
 * - a promise map: the first caller for a key runs the refresh, every caller that arrives while
 *   it runs awaits the same promise;
 * - a grace cache: once a refresh token has been spent, its outcome (the successor tokens, or
 *   the refusal) is kept for `graceMs`, so a request that still holds the spent token (an old
 *   session cookie, a row read just before the rotation) gets the successor instead of spending
 *   a token the provider has already rotated out.
 *
 * Keys are a SHA-256 of provider id and refresh token: the token itself is never a map key.
 * Across instances the same key is the lock name in a shared store (see the README's limits).
 */
import { toBase64Url } from "../crypto/random.js"
import type { ProviderTokens } from "./tokens.js"

/** A spent refresh token's outcome. */
export type GraceEntry = { ok: true; tokens: ProviderTokens } | { ok: false }

const MAX_GRACE_ENTRIES = 10_000
const encoder = new TextEncoder()

export async function flightKey(providerId: string, refreshToken: string): Promise<string> {
  const digest = await crypto.subtle.digest(
    "SHA-256",
    encoder.encode(`${providerId}\u0000${refreshToken}`),
  )
  return toBase64Url(new Uint8Array(digest))
}

const flights = new Map<string, Promise<unknown>>()
const grace = new Map<string, { until: number; entry: GraceEntry }>()

/**
 * Run `refresh` for `key` unless a run for it is in progress, in which case share its result.
 * `leader` tells the caller whether it ran the refresh (and so persisted its outcome).
 */
export async function singleFlight<T>(
  key: string,
  refresh: () => Promise<T>,
): Promise<{ value: T; leader: boolean }> {
  const running = flights.get(key) as Promise<T> | undefined
  if (running) return { value: await running, leader: false }
  const promise = refresh().finally(() => flights.delete(key))
  flights.set(key, promise)
  return { value: await promise, leader: true }
}

export function rememberOutcome(key: string, entry: GraceEntry, graceMs: number): void {
  if (graceMs <= 0) return
  const now = Date.now()
  if (grace.size >= MAX_GRACE_ENTRIES) {
    for (const [k, v] of grace) if (v.until <= now) grace.delete(k)
    // Still full: forget the oldest. The store lock and the row re-read still prevent a
    // double spend; this cache only saves the late request a round trip.
    while (grace.size >= MAX_GRACE_ENTRIES) grace.delete(grace.keys().next().value!)
  }
  grace.set(key, { until: now + graceMs, entry })
}

export function recallOutcome(key: string): GraceEntry | undefined {
  const hit = grace.get(key)
  if (!hit) return undefined
  if (hit.until <= Date.now()) {
    grace.delete(key)
    return undefined
  }
  return hit.entry
}

/** Forget every remembered outcome (tests). */
export function clearRefreshState(): void {
  grace.clear()
}
