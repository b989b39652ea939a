/**
 * Where a user's provider tokens live, behind one small interface, so `getAccessToken` does
 * not care: the `accounts` row (with an adapter, tokens sealed at rest) or the session cookie
 * (without one).
 *
 * `persist*` is what the request that ran the refresh writes, before anyone gets the new
 * access token; `adopt*` is what every request sharing that refresh does for itself (a cookie
 * holder re-issues its own cookie).
 */

import type { SessionContext } from "../../../kernel/session/context.js"
import type { JWT } from "../../../kernel/token/jwt.js"
import type { Adapter, AdapterAccount } from "../../../kernel/types/adapters.js"
import type { ResponseCookie } from "../../../kernel/types/cookies.js"
import { openToken, sealToken } from "./at-rest.js"
import { issueWithinBudget, tokensClaimOf, withProviderTokens } from "./session-cookie.js"
import type { ProviderTokens } from "./tokens.js"

export interface TokenHolder {
  readonly userId: string
  /** This user's tokens at the provider, or `null` when they have no such account. */
  read(): Promise<ProviderTokens | null>
  persist(tokens: ProviderTokens): Promise<void>
  persistFailure(): Promise<void>
  adopt(tokens: ProviderTokens): Promise<void>
  adoptFailure(): Promise<void>
  /** Cookies the caller must set (a re-issued session cookie). */
  readonly cookies: ResponseCookie[]
}

const REFUSED: ProviderTokens = { error: "RefreshTokenError" }

/** Tokens in the session cookie's claim; `token` is the decoded session token. */
export function sessionCookieHolder(
  sctx: SessionContext,
  token: JWT & { sub: string },
  providerId: string,
): TokenHolder {
  let current: JWT = token
  const holder: TokenHolder = {
    userId: token.sub,
    cookies: [],
    read: async () => tokensClaimOf(current)?.[providerId] ?? null,
    // The cookie is the only copy: the grace cache carries the outcome to other requests.
    persist: async () => {},
    persistFailure: async () => {},
    adopt: (tokens) => write(tokens),
    adoptFailure: () => write(REFUSED),
  }
  async function write(tokens: ProviderTokens) {
    current = withProviderTokens(current, providerId, tokens)
    holder.cookies.splice(0, Infinity, ...(await issueWithinBudget(sctx, current, providerId)))
  }
  return holder
}

/**
 * Tokens in the `accounts` row, sealed. With JWT sessions a refusal is also written into the
 * session cookie (`markCookie`), so the session shows it without a database read.
 */
export function accountRowHolder(
  adapter: Adapter,
  secret: readonly string[],
  userId: string,
  providerId: string,
  markCookie?: { sctx: SessionContext; token: JWT },
): TokenHolder {
  let account: AdapterAccount | null = null
  const holder: TokenHolder = {
    userId,
    cookies: [],
    async read() {
      account = (await adapter.getAccountByUserId!(userId, providerId)) ?? null
      if (!account) return null
      const tokens: ProviderTokens = {}
      const access = await openToken(secret, account.access_token)
      const refresh = await openToken(secret, account.refresh_token)
      if (access) tokens.access_token = access
      if (refresh) tokens.refresh_token = refresh
      if (typeof account.expires_at === "number") tokens.expires_at = account.expires_at
      if (account.token_type) tokens.token_type = account.token_type
      return tokens
    },
    async persist(tokens) {
      await adapter.updateAccount!({
        ...key(),
        ...(await sealedColumns(secret, tokens)),
      })
    },
    async persistFailure() {
      await adapter.updateAccount!({
        ...key(),
        access_token: null,
        refresh_token: null,
        expires_at: null,
      })
    },
    adopt: async () => {},
    async adoptFailure() {
      if (!markCookie) return
      const marked = withProviderTokens(markCookie.token, providerId, REFUSED)
      holder.cookies.splice(
        0,
        Infinity,
        ...(await issueWithinBudget(markCookie.sctx, marked, providerId)),
      )
    },
  }
  function key() {
    if (!account) throw new Error("read() must come first")
    return { provider: account.provider, providerAccountId: account.providerAccountId }
  }
  return holder
}

/** The token columns of an account row for `tokens`, access and refresh token sealed. */
export async function sealedColumns(
  secret: readonly string[],
  tokens: ProviderTokens,
): Promise<{
  access_token: string | null
  refresh_token: string | null
  expires_at: number | null
  token_type?: string
}> {
  return {
    access_token: tokens.access_token ? await sealToken(secret, tokens.access_token) : null,
    refresh_token: tokens.refresh_token ? await sealToken(secret, tokens.refresh_token) : null,
    expires_at: tokens.expires_at ?? null,
    ...(tokens.token_type ? { token_type: tokens.token_type } : {}),
  }
}
