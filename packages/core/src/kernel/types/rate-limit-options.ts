/**
 * What the sign-in rate limits can be told: the options shared by all of them and those of
 * credentials and passkey options. Providers' config types name these, so they live apart from
 * the limits themselves (which need the request context, above the providers).
 */
import type { RateLimitRule, RateLimitStore } from "./store.js"

export interface SignInRateLimitOptions {
  /** Where attempts are counted. Default: the top-level `store` (memory unless configured). */
  store?: RateLimitStore
  /**
   * The client IP of a request, for `perIp`. Default: the rightmost `X-Forwarded-For` entry,
   * else `X-Real-IP` (right behind one proxy), else the connection's address (see
   * `kernel/rate-limit/client-ip.ts`). Whatever it returns is parsed: an IPv4 or IPv6 address
   * (`[v6]:port` and `v4:port` too) is counted, anything else is not (and is logged once,
   * code `client-ip-unreadable`).
   */
  getClientIp?: (request: Request) => string | undefined
  /**
   * IPv6 clients are counted per block of this many leading bits: default 64 (the smallest block
   * one subscriber gets, RFC 6177), from 32 to 64. A smaller number groups more addresses
   * (`48` for providers that hand each site a /48).
   */
  ipv6Prefix?: number
  /**
   * When the store cannot answer (a Redis outage): `false` (default) refuses the attempt as
   * if the limit were reached (`RateLimited`, logged as `StoreError`); `true` lets it through.
   */
  failOpen?: boolean
}

export interface CredentialsRateLimitOptions extends SignInRateLimitOptions {
  /** Attempts per account name. Default 10 per 15 minutes; a successful sign-in resets it. */
  perAccount?: RateLimitRule | false
  /** Attempts per client IP. Default 50 per 15 minutes. */
  perIp?: RateLimitRule | false
  /**
   * The account name of a submission. Default: the values of the provider's account fields
   * (see `accountFields` in `credentials-limits.ts`), trimmed, NFKC and lower-cased as sign-in identifiers are.
   */
  account?: (credentials: Record<string, unknown>) => string | undefined
}

/** Limits on `GET /webauthn-options`; see `passkey-options-limits.ts`. */
export interface PasskeyOptionsRateLimitOptions extends SignInRateLimitOptions {
  /** Options requests per client IP. Default 100 per 15 minutes. */
  perIp?: RateLimitRule | false
  /** Options requests naming one address (its mailbox). Default 10 per 15 minutes. */
  perAddress?: RateLimitRule | false
}
