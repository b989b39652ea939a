/**
 * Limits on credentials sign-in (password guessing, ASVS 6.3.1 / 6.1.1): per client IP and per
 * account, counted before `authorize` runs, so concurrent guesses cannot slip past the limit
 * and a refused attempt costs no password hash.
 *
 * The account is read from the provider's **declared** fields only (`credentials: { … }`):
 * a field the form does not declare cannot move a guess to a fresh counter (posting a random
 * `email` next to `username` used to do exactly that), and a declared field that is not a
 * string (`username: ["victim"]` in JSON) is refused with a 400 before `authorize` sees it.
 *
 * Both limits end in the same `RateLimited` 429 page with the same message, whether the
 * account exists or not: the limit counts attempts on the name typed, not on a user, so it
 * tells an attacker nothing about who has an account. Account names are hashed before they
 * become store keys, so a shared Redis holds no addresses.
 */
import { InvalidRequest } from "../../errors.js"
import type { CredentialsConfig } from "../../providers/index.js"
import type { RequestContext } from "../context.js"
import { sha256Base64Url } from "../crypto/digest.js"
import { foldIdentifier } from "../email/normalize-identifier.js"
import { defaultClientIp } from "./client-ip.js"
import { enforceChecks } from "./count-attempt.js"
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
   * The account name of a submission. Default: the value of the provider's account field (see
   * {@link accountField}), trimmed, NFKC and lower-cased as sign-in identifiers are.
   */
  account?: (credentials: Record<string, unknown>) => string | undefined
}

/** Declared fields that name an account, in the order they are preferred. */
const ACCOUNT_FIELDS = ["email", "username", "login", "identifier"] as const

/**
 * The one declared field that names the account: the first of `email`, `username`, `login`,
 * `identifier` the provider declares, else its first declared field that is not a password.
 * Fixed per provider, so no submission can choose which field is counted.
 */
export function accountField(provider: Pick<CredentialsConfig, "credentials">): string | undefined {
  const declared = Object.entries(provider.credentials ?? {})
  const named = ACCOUNT_FIELDS.find((field) => declared.some(([name]) => name === field))
  return named ?? declared.find(([, input]) => input?.type !== "password")?.[0]
}

/**
 * Throws `InvalidRequest` (400) when a declared field was posted as something other than a
 * string: no sign-in form sends that, and it would escape the per-account key.
 */
export function assertDeclaredStrings(
  provider: Pick<CredentialsConfig, "id" | "credentials">,
  credentials: Record<string, unknown>,
): void {
  for (const name of Object.keys(provider.credentials ?? {})) {
    const value = credentials[name]
    if (value === undefined || typeof value === "string") continue
    throw new InvalidRequest(`Invalid request: the field "${name}" must be a string`, {
      details: { provider: provider.id, field: name },
    })
  }
}

function declaredAccountName(
  provider: CredentialsConfig,
  credentials: Record<string, unknown>,
): string | undefined {
  const field = accountField(provider)
  const value = field === undefined ? undefined : credentials[field]
  if (typeof value !== "string") return undefined
  const folded = foldIdentifier(value)
  return folded === "" ? undefined : folded
}

/**
 * Checks the declared fields, counts this attempt; throws `InvalidRequest` or `RateLimited`
 * (also when, failing closed, the store cannot count). Returns what to call after a successful
 * sign-in: it clears the account's counter, so the limit weighs on failures (a person signing
 * in often never meets it) while every attempt is still counted up front, atomically.
 */
export async function enforceCredentialsLimits(
  ctx: RequestContext,
  provider: CredentialsConfig,
  credentials: Record<string, unknown>,
): Promise<() => Promise<void>> {
  assertDeclaredStrings(provider, credentials)
  const options = provider.rateLimit
  if (options === false) return async () => {}
  const store = options?.store ?? ctx.config.store
  const ip = (options?.getClientIp ?? defaultClientIp)(ctx.request)
  const account = options?.account
    ? options.account(credentials)
    : declaredAccountName(provider, credentials)
  const accountKey = account ? `credentials:account:${await sha256Base64Url(account)}` : undefined
  await enforceChecks(
    ctx.logger,
    store,
    [
      {
        scope: "ip",
        key: ip && `credentials:ip:${ip}`,
        rule: options?.perIp ?? DEFAULT_CREDENTIALS_PER_IP,
      },
      {
        scope: "account",
        key: accountKey,
        rule: options?.perAccount ?? DEFAULT_CREDENTIALS_PER_ACCOUNT,
      },
    ],
    { failOpen: options?.failOpen, provider: provider.id, message: "Too many sign-in attempts" },
  )
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
