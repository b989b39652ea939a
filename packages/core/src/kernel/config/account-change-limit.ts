/**
 * The limit on account changes of one user: the account API's changes, two-factor settings,
 * adding a passkey and linking a provider account while signed in. Counted in the configured
 * store (so every instance counts together), keyed by the user id's hash. A per-user counter
 * is security state: it is hit without `strangerKeyed`, so a store short of room never forgets
 * it to make room for counters a stranger can mint.
 *
 * A person changes their account a handful of times in a sitting; the limit is there for a
 * script holding a session (a copied cookie that is still recent) that would otherwise add
 * passkeys, link accounts or try settings without end.
 */

import { sha256Base64Url } from "../crypto/digest.js"
import { type AuthError, InvalidParameter } from "../errors/errors.js"
import type { Logger } from "../logger/logger.js"
import { enforceChecks } from "../rate-limit/count-attempt.js"
import type { AccountOptions, AccountRateLimitOptions } from "../types/account-options.js"
import type { RateLimitRule, RateLimitStore } from "../types/store.js"

/** 30 changes per user per 15 minutes. */
export const DEFAULT_ACCOUNT_CHANGES_PER_USER: Readonly<RateLimitRule> = Object.freeze({
  limit: 30,
  windowMs: 15 * 60 * 1000,
})

/**
 * Counts one change of `userId`'s account; throws `RateLimited` (429, `retryAfterSeconds`)
 * over the limit, or the `StoreError` when the store cannot count (unless `failOpen`).
 */
export async function countAccountChange(
  ctx: {
    config: { readonly account: Pick<AccountOptions, "rateLimit">; readonly store: RateLimitStore }
    logger: Pick<Logger, "error">
  },
  userId: string,
): Promise<void> {
  const options = ctx.config.account.rateLimit
  if (options === false) return
  const key = `account-change:user:${await sha256Base64Url(userId)}`
  await enforceChecks(
    ctx.logger,
    options?.store ?? ctx.config.store,
    [{ scope: "user", key, rule: options?.perUser ?? DEFAULT_ACCOUNT_CHANGES_PER_USER }],
    {
      failOpen: options?.failOpen,
      provider: "account",
      message: "Too many account changes for this account: try again later",
    },
  )
}

/** The configuration problem of `account.rateLimit`, if any (a rule that counts nothing). */
export function checkAccountRateLimit(
  options: AccountRateLimitOptions | false | undefined,
  problems: AuthError[],
): void {
  if (options === undefined || options === false) return
  const rule = typeof options === "object" && options !== null ? options.perUser : null
  const positive = (n: unknown) => typeof n === "number" && Number.isFinite(n) && n > 0
  const valid =
    rule === undefined ||
    rule === false ||
    (typeof rule === "object" && rule !== null && positive(rule.limit) && positive(rule.windowMs))
  if (!valid) {
    problems.push(
      new InvalidParameter(
        "account.rateLimit",
        "must be false or { perUser: { limit, windowMs } with positive numbers, or false }",
      ),
    )
  }
}
