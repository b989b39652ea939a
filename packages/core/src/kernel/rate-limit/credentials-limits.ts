/**
 * Limits on credentials sign-in (password guessing, ASVS 6.3.1 / 6.1.1): per client IP and per
 * account, counted before `authorize` runs, so concurrent guesses cannot slip past the limit
 * and a refused attempt costs no password hash.
 *
 * The account is read from the provider's **declared** fields only (`credentials: { … }`):
 * a field the form does not declare cannot move a guess to a fresh counter (posting a random
 * `email` next to `username` used to do exactly that), and a declared field that is not a
 * string (`username: ["victim"]` in JSON) is refused with a 400 before `authorize` sees it.
 * A provider that declares no fields is counted on every conventional account field posted.
 *
 * Both limits end in the same `RateLimited` 429 page with the same message, whether the
 * account exists or not: the limit counts attempts on the name typed, not on a user, so it
 * tells an attacker nothing about who has an account. Account names are hashed before they
 * become store keys, so a shared Redis holds no addresses.
 */

import { sha256Base64Url } from "../crypto/digest.js"
import { InvalidRequest } from "../errors/errors.js"
import type { RequestContext } from "../http/context.js"
import { foldIdentifier } from "../mail/address.js"
import type { CredentialInput } from "../types/provider.js"
import type { CredentialsRateLimitOptions } from "../types/rate-limit-options.js"
import type { RateLimitRule, Store } from "../types/store.js"
import { requestClientIp } from "./client-ip.js"
import { enforceChecks } from "./count-attempt.js"

const FIFTEEN_MINUTES = 15 * 60 * 1000

/** 10 sign-in attempts per account name per 15 minutes (a successful sign-in resets it). */
/** What the limits read of a provider signing in by posted credentials. */
export interface CredentialsLimitedProvider {
  id: string
  /** The declared fields (the account is read from them). */
  credentials?: Record<string, CredentialInput>
  rateLimit?: CredentialsRateLimitOptions | false
}

export const DEFAULT_CREDENTIALS_PER_ACCOUNT: Readonly<RateLimitRule> = Object.freeze({
  limit: 10,
  windowMs: FIFTEEN_MINUTES,
})

/** 50 credentials sign-in attempts per client IP per 15 minutes. */
export const DEFAULT_CREDENTIALS_PER_IP: Readonly<RateLimitRule> = Object.freeze({
  limit: 50,
  windowMs: FIFTEEN_MINUTES,
})

/** Fields that conventionally name an account, in the order they are preferred. */
const ACCOUNT_FIELDS = ["email", "username", "login", "identifier"] as const

/**
 * The fields whose values are counted per account. With declared fields: one, fixed per
 * provider (the first of `email`, `username`, `login`, `identifier` it declares, else its first
 * declared field that is not a password), so no submission can choose which field is counted.
 * With none declared: every conventional account field, each value on its own counter, so
 * adding a field only adds a counter and never escapes the one already counting.
 */
export function accountFields(
  provider: Pick<CredentialsLimitedProvider, "credentials">,
): readonly string[] {
  const declared = Object.entries(provider.credentials ?? {})
  if (declared.length === 0) return ACCOUNT_FIELDS
  const named = ACCOUNT_FIELDS.find((field) => declared.some(([name]) => name === field))
  const field = named ?? declared.find(([, input]) => input?.type !== "password")?.[0]
  return field === undefined ? [] : [field]
}

/**
 * Throws `InvalidRequest` (400) when a declared field (with none declared: a conventional
 * account field) was posted as something other than a string: no sign-in form sends that, and
 * it would escape the per-account key.
 */
export function assertStringFields(
  provider: Pick<CredentialsLimitedProvider, "id" | "credentials">,
  credentials: Record<string, unknown>,
): void {
  const declared = Object.keys(provider.credentials ?? {})
  for (const name of declared.length > 0 ? declared : ACCOUNT_FIELDS) {
    const value = credentials[name]
    if (value === undefined || typeof value === "string") continue
    throw new InvalidRequest(`Invalid request: the field "${name}" must be a string`, {
      details: { provider: provider.id, field: name },
    })
  }
}

/** The account names of a submission, each folded as sign-in identifiers are; no duplicates. */
function accountNames(
  provider: CredentialsLimitedProvider,
  credentials: Record<string, unknown>,
): string[] {
  const custom = provider.rateLimit ? provider.rateLimit.account : undefined
  const raw = custom
    ? [custom(credentials)]
    : accountFields(provider).map((field) => credentials[field])
  const names = raw.filter((v): v is string => typeof v === "string").map(foldIdentifier)
  return [...new Set(names.filter((name) => name !== ""))]
}

/**
 * Checks the declared fields, counts this attempt; throws `InvalidRequest` or `RateLimited`
 * (also when, failing closed, the store cannot count). Returns what to call after a successful
 * sign-in: it clears the account's counter, so the limit weighs on failures (a person signing
 * in often never meets it) while every attempt is still counted up front, atomically.
 */
export async function enforceCredentialsLimits(
  ctx: RequestContext,
  provider: CredentialsLimitedProvider,
  credentials: Record<string, unknown>,
): Promise<() => Promise<void>> {
  assertStringFields(provider, credentials)
  const options = provider.rateLimit
  if (options === false) return async () => {}
  const store = options?.store ?? ctx.config.store
  const ip = requestClientIp(ctx.request, options, ctx.logger)
  const accountKeys = await Promise.all(
    accountNames(provider, credentials).map(
      async (name) => `credentials:account:${await sha256Base64Url(name)}`,
    ),
  )
  const perAccount = options?.perAccount ?? DEFAULT_CREDENTIALS_PER_ACCOUNT
  await enforceChecks(
    ctx.logger,
    store,
    [
      {
        scope: "ip",
        key: ip && `credentials:ip:${ip}`,
        rule: options?.perIp ?? DEFAULT_CREDENTIALS_PER_IP,
        strangerKeyed: true,
      },
      ...accountKeys.map((key) => ({
        scope: "account",
        key,
        rule: perAccount,
        // Any name may be typed, but forgetting this counter hands the account fresh guesses:
        // a store short of room keeps it apart from the IP and mail counters (issue 42).
        strangerKeyed: true,
        guardsAccount: true,
      })),
    ],
    { failOpen: options?.failOpen, provider: provider.id, message: "Too many sign-in attempts" },
  )
  return async () => {
    for (const key of accountKeys) {
      try {
        // A rate-limit-only store (just `hit`) cannot forget: the window ends it instead.
        await (store as Partial<Store>).delete?.(key)
      } catch (cause) {
        ctx.logger.error(cause instanceof Error ? cause : new Error(String(cause)))
      }
    }
  }
}
