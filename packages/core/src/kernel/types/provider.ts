/**
 * What every provider has, whatever its kind: the kernel's view of a provider. The kinds (each
 * feature's provider types) extend these, and `providers/index.ts` unites them for the public
 * `AuthConfig`.
 */
import type { CarriesFeature } from "./feature-key.js"

export type ProviderType = "oauth" | "oidc" | "email" | "credentials" | "webauthn"

/** What every provider has. */
export interface CommonProviderOptions extends CarriesFeature {
  /** Appears in the URLs: `/auth/signin/<id>`, `/auth/callback/<id>`. Unique per config. */
  id: string
  /** Shown on the built-in sign-in page. */
  name: string
  type: ProviderType
  /**
   * Auth.js factories keep the user's options here and merge them over the defaults later;
   * Latchkey merges them (shallowly) once, when the configuration is resolved.
   */
  options?: Record<string, unknown>
}

/** One input of a credentials form: `label` and any `<input>` attribute (`type`, `placeholder`, …). */
export interface CredentialInput {
  label?: string
  type?: string
  value?: string
  placeholder?: string
  [attribute: string]: unknown
}

/**
 * A provider as the kernel handles it: id, name, kind, and the feature that serves it (set by
 * the provider's factory). Each feature narrows it to its own kind.
 */
export interface ProviderConfig extends CommonProviderOptions {}

/**
 * A provider object, or a factory (e.g. `GitHub`, passed uncalled): it is called once when the
 * configuration is resolved (by `setEnvDefaults` with the `AUTH_<ID>_*` values).
 */
export type Provider = ProviderConfig | ((...args: never[]) => ProviderConfig)
