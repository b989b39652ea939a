/**
 * What a provider kind hands to `completeSignIn` once it has verified the user. Among the
 * types, because the kernel's sign-in and the adapter's feature (which resolves the user among
 * its rows) both read it.
 */
import type { Account, Profile, User } from "./records.js"

export interface SignInAttempt {
  /** The user as the provider (or `authorize`) describes them; for OAuth, the adapter's user if known. */
  user: User
  account: Account | null
  profile?: Profile
  /** OAuth/OIDC: whether the provider vouches for `user.email` (gates linking by email). */
  emailVerified?: boolean
  /** Credentials sign-in: the posted fields (without `csrfToken`), for the `signIn` callback. */
  credentials?: Record<string, unknown>
  /** Where to go afterwards (already validated by `resolveCallbackUrl`). */
  callbackUrl: string
  /**
   * Runs once the user is resolved (created or linked), before the session is issued: WebAuthn
   * stores the authenticator (or its new counter) here, so a refused sign-in stores nothing.
   */
  afterLogin?: (user: User) => Promise<void>
  /** How the first factor was proven (RFC 8176); default by provider kind (`pwd`, `email`, `fed`). */
  amr?: string[]
}
