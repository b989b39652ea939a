/**
 * What users, sessions, accounts and profiles look like: the records every layer passes around
 * (adapters, providers, callbacks). Names and shapes follow Auth.js v5. The public names are
 * re-exported by `types.ts` (and so by `@latchkey/core`); augmenting `Session` or `User` in
 * `@latchkey/core` reaches these declarations.
 */
import type { ProviderType } from "./provider.js"

/** A user as the app sees it. Providers' `profile()` returns this shape. */
export interface User {
  id?: string
  name?: string | null
  email?: string | null
  image?: string | null
}

/** The session object the `session` callback builds and `GET /auth/session` returns. */
export interface DefaultSession {
  user?: User
  /** ISO 8601 date at which the session expires. */
  expires: string
  /**
   * Set when a provider refused to refresh this user's access token (see the provider's
   * `refresh` option): the user must sign in with that provider again.
   */
  error?: "RefreshTokenError"
}

/** What the client sees of the session. Augment it to add fields. */
export interface Session extends DefaultSession {}

/** Tokens and ids a provider returned for an account, as stored by an adapter. */
export interface Account {
  provider: string
  providerAccountId: string
  type: ProviderType
  userId?: string
  access_token?: string
  token_type?: string
  id_token?: string
  refresh_token?: string
  scope?: string
  /** Seconds since the epoch at which `access_token` expires. */
  expires_at?: number
  session_state?: string
  [key: string]: unknown
}

/** The raw profile an OAuth/OIDC provider returned (ID-token claims or userinfo JSON). */
export interface Profile {
  sub?: string | null
  name?: string | null
  given_name?: string | null
  family_name?: string | null
  email?: string | null
  email_verified?: boolean | null
  picture?: unknown
  [claim: string]: unknown
}
