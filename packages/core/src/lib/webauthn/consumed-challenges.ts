/**
 * Server-side memory of used WebAuthn challenges. The sealed challenge cookie alone cannot make
 * a challenge single-use: a captured request (cookie + body) could be sent again within the five
 * minutes, and a synced passkey's signature counter stays 0, so the counter cannot stop that
 * replay either. Each challenge is consumed here before its response is verified.
 *
 * The default is this process's memory. `SingleUseStore` is the one seam a shared store
 * (several instances behind a load balancer) plugs into.
 */

/** `consumeOnce(key, ttlMs)`: `true` the first time a key is seen within `ttlMs`, then `false`. */
export interface SingleUseStore {
  consumeOnce(key: string, ttlMs: number): boolean | Promise<boolean>
}

/** Bounds memory; at 5 minutes per challenge this is far above any real sign-in rate. */
const MAX_ENTRIES = 100_000

/** A single-use set in memory: keys expire after their TTL; the oldest go first when full. */
export function memorySingleUseStore(now: () => number = Date.now): SingleUseStore {
  const until = new Map<string, number>()
  const sweep = (at: number) => {
    for (const [key, expires] of until) if (expires <= at) until.delete(key)
  }
  return {
    consumeOnce(key, ttlMs) {
      const at = now()
      const expires = until.get(key)
      if (expires !== undefined && expires > at) return false
      if (until.size >= MAX_ENTRIES) {
        sweep(at)
        // Still full: forget the oldest (insertion order). Only a flood of ceremonies within
        // five minutes gets here, and those challenges expire soon after anyway.
        while (until.size >= MAX_ENTRIES) until.delete(until.keys().next().value!)
      }
      until.delete(key)
      until.set(key, at + ttlMs)
      return true
    },
  }
}

let defaultStore: SingleUseStore | undefined

/** The store the WebAuthn callback uses: the process-wide in-memory one. */
export function consumedChallenges(): SingleUseStore {
  defaultStore ??= memorySingleUseStore()
  return defaultStore
}
