/**
 * What a sign-in with a refreshing provider stores: the tokens it just received, sealed into the
 * `accounts` row (adapter), or into the session token's claim (no adapter). Auth.js writes an
 * account's tokens once, at linking; here every sign-in replaces them, so a re-consent's new
 * refresh token is the one used.
 */

import type { ResolvedConfig } from "../../../kernel/config/resolve.js"
import type { JWT } from "../../../kernel/token/jwt.js"
import type { AdapterAccount } from "../../../kernel/types/adapters.js"
import type { ProviderConfig } from "../../../kernel/types/provider.js"
import type { Account } from "../../../kernel/types/records.js"
import { sealToken } from "./at-rest.js"
import { sealedColumns } from "./holders.js"
import { refreshOptionsOf } from "./options.js"
import { withProviderTokens } from "./session-cookie.js"
import { pickTokens } from "./tokens.js"

/** `account` as the row to insert: token columns sealed when the provider refreshes. */
export async function accountRowOf(
  config: ResolvedConfig,
  provider: ProviderConfig,
  account: AdapterAccount,
): Promise<AdapterAccount> {
  if (!refreshOptionsOf(provider)) return account
  return { ...account, ...(await sealedTokenColumns(config, account)) } as AdapterAccount
}

/** Replace a known account's stored tokens with the ones this sign-in received. */
export async function storeSignInTokens(
  config: ResolvedConfig,
  provider: ProviderConfig,
  account: Account,
): Promise<void> {
  if (!refreshOptionsOf(provider) || !config.adapter?.updateAccount) return
  await config.adapter.updateAccount({
    provider: account.provider,
    providerAccountId: account.providerAccountId,
    ...(await sealedTokenColumns(config, account)),
  })
}

/** The session token with this sign-in's provider tokens (no adapter). */
export function withSignInTokens(
  token: JWT,
  provider: ProviderConfig,
  account: Account | null,
): JWT {
  if (!account || !refreshOptionsOf(provider)) return token
  return withProviderTokens(token, provider.id, pickTokens(account))
}

async function sealedTokenColumns(config: ResolvedConfig, account: Account) {
  const { refresh_token, ...columns } = await sealedColumns(config.secret, pickTokens(account))
  const idToken = account.id_token ? await sealToken(config.secret, account.id_token) : null
  // Google and others send a refresh token at the first consent only: a later sign-in without
  // one keeps the stored one (undefined leaves the column as it is).
  return { ...columns, id_token: idToken, ...(refresh_token ? { refresh_token } : {}) }
}
