/**
 * The provider tokens `getAccessToken` works with, wherever they are kept, and the two rules
 * about them: when an access token is fresh, and when only a new sign-in can help.
 */
import type { RefreshedTokens } from "./grant.js"

export interface ProviderTokens {
  access_token?: string
  refresh_token?: string
  /** Seconds since the epoch. */
  expires_at?: number
  token_type?: string
  /** Set in a session cookie when the provider refused a refresh (JWT sessions). */
  error?: "RefreshTokenError"
}

/** Usable for at least `skewSeconds` more. A token without `expires_at` never expires. */
export function isFresh(tokens: ProviderTokens, skewSeconds: number, nowSeconds: number): boolean {
  if (!tokens.access_token || tokens.error) return false
  return tokens.expires_at === undefined || tokens.expires_at - skewSeconds > nowSeconds
}

/**
 * Nothing left to refresh with: a refusal was recorded, or there is no refresh token and no
 * access token that still works. The session then says `error: "RefreshTokenError"`.
 */
export function needsSignIn(tokens: ProviderTokens, nowSeconds: number): boolean {
  if (tokens.error) return true
  if (tokens.refresh_token) return false
  return !isFresh(tokens, 0, nowSeconds)
}

/** The successor of `previous` after a refresh: a provider that does not rotate keeps the old one. */
export function successorOf(previous: ProviderTokens, refreshed: RefreshedTokens): ProviderTokens {
  const next: ProviderTokens = { access_token: refreshed.access_token }
  const refreshToken = refreshed.refresh_token ?? previous.refresh_token
  if (refreshToken) next.refresh_token = refreshToken
  if (refreshed.expires_at !== undefined) next.expires_at = refreshed.expires_at
  const tokenType = refreshed.token_type ?? previous.token_type
  if (tokenType) next.token_type = tokenType
  return next
}

/** The token fields of an account or token response, nothing else. */
export function pickTokens(source: {
  access_token?: unknown
  refresh_token?: unknown
  expires_at?: unknown
  token_type?: unknown
}): ProviderTokens {
  const out: ProviderTokens = {}
  if (typeof source.access_token === "string") out.access_token = source.access_token
  if (typeof source.refresh_token === "string") out.refresh_token = source.refresh_token
  if (typeof source.expires_at === "number") out.expires_at = source.expires_at
  if (typeof source.token_type === "string") out.token_type = source.token_type
  return out
}
