/**
 * Without an adapter, provider tokens travel in the session token (a JWE the browser cannot
 * read), under the claim {@link PROVIDER_TOKENS_CLAIM}: `{ [providerId]: ProviderTokens }`.
 * Only the access token, its expiry, its type and the refresh token are kept (no ID token), and
 * the whole session token must stay within {@link SESSION_TOKEN_BUDGET_BYTES}, or the write
 * fails with `ProviderTokensTooLarge` instead of growing the cookie without bound.
 */
import { ProviderTokensTooLarge } from "../../../kernel/errors/errors.js"
import type { SessionContext } from "../../../kernel/session/context.js"
import { issueJwtSession } from "../../../kernel/session/issue.js"
import type { JWT } from "../../../kernel/token/jwt.js"
import type { ResponseCookie } from "../../../kernel/types/cookies.js"
import type { ProviderTokens } from "./tokens.js"

export const PROVIDER_TOKENS_CLAIM = "providerTokens"

/**
 * 6 KiB of session token (two cookie chunks): with the cookie names and the app's own cookies
 * that stays under 8 KiB, the default limit of one request header line in nginx
 * (`large_client_header_buffers`) and many load balancers.
 */
export const SESSION_TOKEN_BUDGET_BYTES = 6 * 1024

type TokensClaim = Record<string, ProviderTokens>

export function tokensClaimOf(token: JWT): TokensClaim | undefined {
  const claim = token[PROVIDER_TOKENS_CLAIM]
  return claim && typeof claim === "object" && !Array.isArray(claim)
    ? (claim as TokensClaim)
    : undefined
}

/** `token` with the provider's entry replaced. */
export function withProviderTokens(token: JWT, providerId: string, tokens: ProviderTokens): JWT {
  return {
    ...token,
    [PROVIDER_TOKENS_CLAIM]: { ...tokensClaimOf(token), [providerId]: tokens },
  }
}

/** Encrypt `token` into session cookies, refusing a token over the budget. */
export async function issueWithinBudget(
  sctx: SessionContext,
  token: JWT,
  providerId: string,
): Promise<ResponseCookie[]> {
  const cookies = await issueJwtSession(sctx, token)
  const bytes = cookies.reduce((sum, c) => sum + c.value.length, 0)
  if (bytes > SESSION_TOKEN_BUDGET_BYTES) {
    throw new ProviderTokensTooLarge(
      `Provider "${providerId}": its tokens make the session cookie ${bytes} bytes, over the budget of ${SESSION_TOKEN_BUDGET_BYTES}; use an adapter to keep them in the database`,
      { details: { provider: providerId, bytes, budget: SESSION_TOKEN_BUDGET_BYTES } },
    )
  }
  return cookies
}
