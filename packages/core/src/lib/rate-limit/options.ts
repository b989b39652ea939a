/** What every sign-in rate limit (email, credentials) can be told. */
import type { RateLimitStore } from "./store.js"

export interface SignInRateLimitOptions {
  /** Where attempts are counted. Default: the top-level `store` (memory unless configured). */
  store?: RateLimitStore
  /**
   * The client IP of a request, for `perIp`. Default: the rightmost `X-Forwarded-For` entry,
   * else `X-Real-IP` (right behind one proxy; see `lib/rate-limit/client-ip.ts`).
   */
  getClientIp?: (request: Request) => string | undefined
  /**
   * When the store cannot answer (a Redis outage): `false` (default) refuses the attempt as
   * if the limit were reached (`RateLimited`, logged as `StoreError`); `true` lets it through.
   */
  failOpen?: boolean
}
