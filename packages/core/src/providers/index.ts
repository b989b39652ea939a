/**
 * Provider types shared by every provider factory (`@latchkey/core/providers/<id>`).
 * A provider is plain data (plus the functions a kind needs); the core picks the handler by
 * `type`, so any `id` works for any kind.
 *
 * @module @latchkey/core/providers
 */
import type { CredentialsRateLimitOptions } from "../kernel/rate-limit/options.js"
import type { Awaitable } from "../kernel/types/awaitable.js"
import type { CommonProviderOptions, CredentialInput } from "../kernel/types/provider.js"
import type { User } from "../kernel/types/records.js"

// The kinds below extend these; they live under kernel/types so the kinds need not import this
// module (which imports them for the union).
export type {
  CommonProviderOptions,
  CredentialInput,
  ProviderType,
} from "../kernel/types/provider.js"

/**
 * Sign-in with whatever the app checks itself (username/password, a one-time code, …).
 * `authorize` returns the user, or `null` to refuse (`CredentialsSignin`).
 */
export interface CredentialsConfig<
  C extends Record<string, CredentialInput> = Record<string, CredentialInput>,
> extends CommonProviderOptions {
  type: "credentials"
  /** The form fields of the built-in sign-in page. */
  credentials: C
  /**
   * Check the submitted fields. `credentials` holds every posted field except `csrfToken`
   * (so also `callbackUrl`); `request` is the original request with its body intact.
   * Return `null` (or throw `CredentialsSignin`) to refuse.
   */
  authorize: (
    credentials: Partial<Record<keyof C, unknown>> & Record<string, unknown>,
    request: Request,
  ) => Awaitable<User | null>
  /**
   * Sign-in attempt limits per client IP and per account name, counted before `authorize`.
   * Default: 50 per IP and 10 per account per 15 minutes; `false` turns them off.
   */
  rateLimit?: CredentialsRateLimitOptions | false
}

import type { OAuthConfig, OIDCConfig } from "./oauth.js"

export type { OAuthConfig, OIDCConfig } from "./oauth.js"

import type { EmailConfig } from "./email.js"

export type { EmailConfig } from "./email.js"

import type { WebAuthnConfig } from "./webauthn.js"

/** WebAuthn provider (experimental; needs `experimental.enableWebAuthn`). */
export type { WebAuthnConfig } from "./webauthn.js"

/** Every kind of provider object. Narrow on `type`. */
export type ProviderConfig =
  | CredentialsConfig
  // Each OAuth provider types its own profile (Apple's email_verified is a string, for one):
  // the union accepts any of them, as Auth.js's does.
  // biome-ignore lint/suspicious/noExplicitAny: the profile type parameter varies per provider
  | OAuthConfig<any>
  // biome-ignore lint/suspicious/noExplicitAny: as above
  | OIDCConfig<any>
  | EmailConfig
  | WebAuthnConfig

/**
 * A provider object, or a factory (e.g. `GitHub`, passed uncalled): it is called once when the
 * configuration is resolved (by `setEnvDefaults` with the `AUTH_<ID>_*` values).
 */
export type Provider = ProviderConfig | ((...args: never[]) => ProviderConfig)
