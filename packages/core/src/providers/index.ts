/**
 * Provider types shared by every provider factory (`@latchkey/core/providers/<id>`).
 *
 * @module @latchkey/core/providers
 */
export type ProviderType = "oauth" | "oidc" | "email" | "credentials" | "webauthn"

/** What every provider has. */
export interface CommonProviderOptions {
  id: string
  name: string
  type: ProviderType
}

/** A provider object, or a factory called with no arguments to get one. */
export type Provider =
  | (CommonProviderOptions & Record<string, unknown>)
  | (() => CommonProviderOptions)
