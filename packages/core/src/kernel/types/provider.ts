/**
 * What every provider has, whatever its kind. The bottom of the provider types: the kinds
 * (`providers/oauth.ts`, `email.ts`, `webauthn.ts`) extend these, and `providers/index.ts`
 * unites the kinds, so this module imports nothing.
 */

export type ProviderType = "oauth" | "oidc" | "email" | "credentials" | "webauthn"

/** What every provider has. */
export interface CommonProviderOptions {
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
