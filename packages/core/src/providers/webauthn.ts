/**
 * WebAuthn (passkeys), experimental: needs `experimental.enableWebAuthn: true` and an adapter
 * with the authenticator methods. The provider carries the passkey feature (`features/passkey`).
 *
 * @module @latchkey/core/providers/webauthn
 */
import { accountApiFeature } from "../features/account-api/index.js"
import { passkeyFeature } from "../features/passkey/index.js"
import {
  DEFAULT_MAX_PASSKEYS_PER_USER,
  DEFAULT_WEBAUTHN_TIMEOUT,
  type WebAuthnConfig,
  type WebAuthnUserConfig,
} from "../features/passkey/provider-config.js"
import { ALONGSIDE, FEATURE } from "../kernel/feature/feature.js"

export * from "../features/passkey/provider-config.js"

/** Build a WebAuthn provider (`id` `"webauthn"` unless given another). */
export default function WebAuthn(config: WebAuthnUserConfig = {}): WebAuthnConfig {
  return {
    id: "webauthn",
    name: "WebAuthn",
    userVerification: "required",
    timeout: DEFAULT_WEBAUTHN_TIMEOUT,
    maxPasskeysPerUser: DEFAULT_MAX_PASSKEYS_PER_USER,
    enableConditionalUI: true,
    // Not required: signing in with a passkey needs no email (discoverable credentials); only
    // creating one for a new account does.
    formFields: {
      email: { label: "Email", type: "email", autocomplete: "username webauthn" },
    },
    ...config,
    type: "webauthn",
    [FEATURE]: passkeyFeature,
    // Changing or removing it is an account change: the account API comes with it.
    [ALONGSIDE]: [accountApiFeature],
  }
}
