/**
 * Limits on credentials sign-in (password guessing, ASVS 6.3.1 / 6.1.1): per client IP and per
 * account, counted before `authorize` runs, so concurrent guesses cannot slip past the limit
 * and a refused attempt costs no password hash.
 *
 * Both limits end in the same `RateLimited` 429 page with the same message, whether the
 * account exists or not: the limit counts attempts on the name typed, not on a user, so it
 * tells an attacker nothing about who has an account. Account names are hashed before they
 * become store keys, so a shared Redis holds no addresses.
 */
import { RateLimited } from "../../errors.js"
import type { CredentialsConfig } from "../../providers/index.js"
import type { RequestContext } from "../context.js"
import { toBase64Url } from "../crypto/random.js"
import { defaultClientIp } from "./client-ip.js"
import { countAttempt } from "./count-attempt.js"
import type { SignInRateLimitOptions } from "./options.js"
import type { RateLimitRule, Store } from "./store.js"

const FIFTEEN_MINUTES = 15 * 60 * 1000

/** 10 sign-in attempts per account name per 15 minutes (a successful sign-in resets it). */
export const DEFAULT_CREDENTIALS_PER_ACCOUNT: Readonly<RateLimitRule> = Object.freeze({
  limit: 10,
  windowMs: FIFTEEN_MINUTES,
})

/** 50 credentials sign-in attempts per client IP per 15 minutes. */
export const DEFAULT_CREDENTIALS_PER_IP: Readonly<RateLimitRule> = Object.freeze({
  limit: 50,
  windowMs: FIFTEEN_MINUTES,
})

export interface CredentialsRateLimitOptions extends SignInRateLimitOptions {
  /** Attempts per account name. Default 10 per 15 minutes; a successful sign-in resets it. */
  perAccount?: RateLimitRule | false
  /** Attempts per client IP. Default 50 per 15 minutes. */
  perIp?: RateLimitRule | false
  /**
   * The account name of a submission. Default: the first non-empty of the `email`,
   * `username`, `login` and `identifier` fields, trimmed and lower-cased.
   */
  account?: (credentials: Record<string, unknown>) => string | undefined
}

const ACCOUNT_FIELDS = ["email", "username", "login", "identifier"] as const

export function defaultAccountName(credentials: Record<string, unknown>): string | undefined {
  for (const field of ACCOUNT_FIELDS) {
    const value = credentials[field]
    if (typeof value === "string" && value.trim() !== "") return value.trim().toLowerCase()
  }
  return undefined
}

async function sha256(value: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(value))
  return toBase64Url(new Uint8Array(digest))
}

/**
 * Counts this attempt; throws `RateLimited` when a limit (or, failing closed, the store)
 * refuses. Returns what to call after a successful sign-in: it clears the account's counter,
 * so the limit weighs on failures (a person signing in often never meets it) while every
 * attempt is still counted up front, atomically.
 */
export async function enforceCredentialsLimits(
  ctx: RequestContext,
  provider: CredentialsConfig,
  credentials: Record<string, unknown>,
): Promise<() => Promise<void>> {
  const options = provider.rateLimit
  if (options === false) return async () => {}
  const store = options?.store ?? ctx.config.store
  const ip = (options?.getClientIp ?? defaultClientIp)(ctx.request)
  const account = (options?.account ?? defaultAccountName)(credentials)
  const accountKey = account && `credentials:account:${await sha256(account)}`
  const checks: [scope: "ip" | "account", key: string | undefined, rule: RateLimitRule | false][] =
    [
      ["ip", ip && `credentials:ip:${ip}`, options?.perIp ?? DEFAULT_CREDENTIALS_PER_IP],
      ["account", accountKey, options?.perAccount ?? DEFAULT_CREDENTIALS_PER_ACCOUNT],
    ]
  for (const [scope, key, rule] of checks) {
    if (!key) continue
    const verdict = await countAttempt(store, key, rule, options?.failOpen)
    if (verdict.unavailable) ctx.logger.error(verdict.unavailable)
    if (!verdict.allowed) {
      throw new RateLimited("Too many sign-in attempts", {
        details: {
          provider: provider.id,
          scope,
          retryAfterSeconds: verdict.retryAfterSeconds,
          ...(verdict.unavailable ? { reason: "store-unavailable" } : {}),
        },
      })
    }
  }
  return async () => {
    if (!accountKey) return
    try {
      // A rate-limit-only store (just `hit`) cannot forget: the window ends it instead.
      await (store as Partial<Store>).delete?.(accountKey)
    } catch (cause) {
      ctx.logger.error(cause instanceof Error ? cause : new Error(String(cause)))
    }
  }
}
