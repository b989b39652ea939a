/**
 * Provider types shared by every provider factory (`@latchkey/core/providers/<id>`). A
 * provider is data (plus the functions a kind needs) carrying the feature that serves it: each
 * factory sets it, so an app bundles only the features of the providers it configures.
 *
 * @module @latchkey/core/providers
 */

// What every kind has lives in the kernel; each kind's own type lives in its feature.
export type {
  CommonProviderOptions,
  CredentialInput,
  ProviderType,
} from "../kernel/types/provider.js"

import type { CredentialsConfig } from "../kernel/types/credentials.js"

export type { CredentialsConfig } from "../kernel/types/credentials.js"

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
