/**
 * WebAuthn (passkeys), experimental: needs `experimental.enableWebAuthn: true` and an adapter
 * with the authenticator methods. Ceremonies are verified by `@simplewebauthn/server`.
 *
 * ```ts
 * import Passkey from "@latchkey/core/providers/passkey"
 *
 * QwikAuth$(() => ({
 *   providers: [Passkey],
 *   adapter: PostgresAdapter(pool),
 *   experimental: { enableWebAuthn: true },
 * }))
 * ```
 *
 * Endpoints: `GET <basePath>/webauthn-options/<id>?action=register|authenticate[&email=]`
 * answers `{ action, options }` and sets the challenge cookie; `POST <basePath>/callback/<id>`
 * with `action` and `data` (the credential as JSON) verifies it and signs in.
 *
 * (The types behind `@latchkey/core/providers/webauthn`.)
 */
import type {
  GenerateAuthenticationOptionsOpts,
  GenerateRegistrationOptionsOpts,
} from "@simplewebauthn/server"
import type { CommonProviderOptions, CredentialInput } from "../../kernel/types/provider.js"
import type { PasskeyOptionsRateLimitOptions } from "../../kernel/types/rate-limit-options.js"

/**
 * Who the credentials are for. Each field may list several values (several origins of one app);
 * the first is used in the options, all are accepted when verifying. Default: the request's
 * resolved origin (`AUTH_URL`, or the trusted host), its hostname as `id` and host as `name`.
 * The Auth.js spelling `relayingParty` is kept.
 */
export interface RelyingPartyOptions {
  id?: string | readonly string[]
  name?: string | readonly string[]
  origin?: string | readonly string[]
}

export type UserVerification = "required" | "preferred" | "discouraged"

/** A WebAuthn provider with every default filled in. */
export interface WebAuthnConfig extends CommonProviderOptions {
  type: "webauthn"
  relayingParty?: RelyingPartyOptions
  /**
   * Whether the authenticator must verify the user (PIN, biometrics). Default `"required"`, as
   * Auth.js's passkey provider: the browser asks for the PIN or biometric, and the server refuses
   * any registration or assertion without the UV flag, so a stolen or borrowed security key
   * without its PIN opens nothing.
   *
   * `"preferred"` (or `"discouraged"`) asks for verification but accepts a response without it:
   * possession of the authenticator alone then signs in (a single factor, like a password-free
   * key). Choose it only for authenticators that cannot verify users and where that is accepted.
   */
  userVerification: UserVerification
  /** How long, in ms, the browser lets the user complete a ceremony. Default 5 minutes. */
  timeout: number
  /** Offer passkeys in the browser's autofill of the email field (conditional UI). */
  enableConditionalUI: boolean
  /** Fields of the built-in sign-in page's passkey form (default: `email`). */
  formFields: Record<string, CredentialInput>
  /** Extra options for `generateRegistrationOptions` (e.g. `attestationType`). */
  registrationOptions?: Partial<
    Omit<GenerateRegistrationOptionsOpts, "rpID" | "rpName" | "challenge" | "userName">
  >
  /**
   * Limits on `GET /webauthn-options`: `perIp` (default 100 per 15 minutes) and `perAddress`
   * (requests naming one email; default 10 per 15 minutes), counted in `store` (default: the
   * config's). `false` turns them off.
   */
  rateLimit?: PasskeyOptionsRateLimitOptions | false
  /**
   * Most passkeys one user may hold. Registering one more is refused (`InvalidRequest` at the
   * options, `WebAuthnVerificationError` with reason `passkey-limit` at the callback): each
   * passkey is a row every sign-in of that user lists, so a signed-in script must not grow it
   * without bound. Default 20.
   */
  maxPasskeysPerUser: number
  /** Extra options for `generateAuthenticationOptions`. */
  authenticationOptions?: Partial<Omit<GenerateAuthenticationOptionsOpts, "rpID" | "challenge">>
}

/** What the app passes: everything optional. */
export type WebAuthnUserConfig = Partial<Omit<WebAuthnConfig, "type">>

export const DEFAULT_WEBAUTHN_TIMEOUT = 5 * 60 * 1000
export const DEFAULT_MAX_PASSKEYS_PER_USER = 20
