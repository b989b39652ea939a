/**
 * `session.error = "RefreshTokenError"`: how a session read learns that a provider refused a
 * refresh. JWT sessions read it from the session token's claim (no extra work); database
 * sessions look up the user's accounts of refreshing providers (one indexed query each, only
 * when such a provider is configured).
 */

import type { ResolvedConfig } from "../../../kernel/config/resolve.js"
import { nowSeconds } from "../../../kernel/runtime/time.js"
import type { JWT } from "../../../kernel/token/jwt.js"
import type { ProviderConfig } from "../../../kernel/types/provider.js"
import { refreshOptionsOf } from "./options.js"
import { PROVIDER_TOKENS_CLAIM, tokensClaimOf } from "./session-cookie.js"
import { needsSignIn, pickTokens } from "./tokens.js"

const refreshing = new WeakMap<ResolvedConfig, readonly ProviderConfig[]>()

/** The providers of `config` with `refresh` on (computed once per config). */
export function refreshingProviders(config: ResolvedConfig): readonly ProviderConfig[] {
  let list = refreshing.get(config)
  if (!list) {
    list = config.providers.filter((p) => refreshOptionsOf(p) !== undefined)
    refreshing.set(config, list)
  }
  return list
}

/** Whether the session token records tokens that only a new sign-in can fix. */
export function tokenHasRefreshError(token: JWT): boolean {
  const claim = tokensClaimOf(token)
  if (!claim) return false
  const now = nowSeconds()
  return Object.values(claim).some((tokens) => needsSignIn(tokens, now))
}

/**
 * Keep the provider tokens a `jwt` callback dropped (it builds a new token from scratch):
 * losing them would sign the user out of the provider at the next read.
 */
export function keepProviderTokens(before: JWT, after: JWT): JWT {
  if (after[PROVIDER_TOKENS_CLAIM] !== undefined || before[PROVIDER_TOKENS_CLAIM] === undefined) {
    return after
  }
  return { ...after, [PROVIDER_TOKENS_CLAIM]: before[PROVIDER_TOKENS_CLAIM] }
}

/** Whether one of the user's refreshing accounts has no usable tokens left (database sessions). */
export async function accountsHaveRefreshError(
  config: ResolvedConfig,
  userId: string,
): Promise<boolean> {
  const adapter = config.adapter
  const providers = refreshingProviders(config)
  if (!adapter?.getAccountByUserId || providers.length === 0) return false
  const now = nowSeconds()
  for (const provider of providers) {
    const account = await adapter.getAccountByUserId(userId, provider.id)
    // Sealed or not, only presence and expiry matter here: nothing is decrypted.
    if (account && needsSignIn(pickTokens(account), now)) return true
  }
  return false
}
