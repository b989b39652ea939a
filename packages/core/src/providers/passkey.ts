/**
 * The passkey provider: {@link WebAuthn} with id `"passkey"` and name `"Passkey"`, as in
 * Auth.js. Passkeys need JavaScript in the browser (the ceremony is a browser API); see the
 * README for the endpoints and the Qwik helper.
 *
 * @module @latchkey/core/providers/passkey
 */
import WebAuthn, { type WebAuthnConfig, type WebAuthnUserConfig } from "./webauthn.js"

export type { RelyingPartyOptions, UserVerification, WebAuthnConfig } from "./webauthn.js"

export default function Passkey(config: WebAuthnUserConfig = {}): WebAuthnConfig {
  return WebAuthn({ id: "passkey", name: "Passkey", ...config })
}
