/**
 * Passkeys (WebAuthn, experimental: `experimental.enableWebAuthn`), by `Passkey()` or
 * `WebAuthn()` from `@latchkey/core/providers/*`. Ceremonies are verified by
 * `@simplewebauthn/server`.
 *
 * Where it joins the kernel: `GET webauthn-options/<id>` (a ceremony's options and its sealed
 * challenge), `/callback/<id>` (registration and sign-in), the sign-in page's passkey form and
 * its script, the configuration check and the adapter methods it needs.
 */

import { ExperimentalFeatureNotEnabled, MissingAdapter } from "../../kernel/errors/errors.js"
import { type Feature, providersOf } from "../../kernel/feature/feature.js"
import { actionUrl } from "../../kernel/http/context.js"
import { webAuthnAdapterMethods } from "../../kernel/types/adapters.js"
import { webauthnCallback } from "./callback.js"
import { webauthnOptionsAction } from "./options.js"
import type { WebAuthnConfig } from "./provider-config.js"
import { PASSKEY_SCRIPT } from "./script.js"
import { passkeyEntry } from "./sign-in-entry.js"

/** Passkeys: users and accounts as for OAuth, plus the authenticator methods and `getAccount`. */
const WEBAUTHN_METHODS = [
  "createUser",
  "getUser",
  "getUserByEmail",
  "getUserByAccount",
  "updateUser",
  "linkAccount",
  ...webAuthnAdapterMethods,
  "getAccount",
] as const

export const passkeyFeature: Feature = {
  id: "passkey",
  perIsolate: "a passkey challenge is single-use per isolate",
  routes: { "webauthn-options": { GET: webauthnOptionsAction } },
  callback: webauthnCallback,
  signInPage: (ctx, provider) => {
    const passkey = provider as WebAuthnConfig
    return {
      provider: {
        credentials: passkey.formFields ?? {},
        optionsUrl: actionUrl(ctx, "webauthn-options", provider.id),
        conditionalUI: passkey.enableConditionalUI === true,
        render: passkeyEntry,
      },
      script: PASSKEY_SCRIPT,
    }
  },
  check({ config, providers }, report) {
    const own = providersOf(passkeyFeature, providers)
    if (own.length === 0) return
    if (config.experimental?.enableWebAuthn !== true) {
      for (const provider of own) {
        report.problems.push(
          new ExperimentalFeatureNotEnabled(
            `Provider "${provider.id}" is WebAuthn, which needs experimental.enableWebAuthn: true`,
          ),
        )
      }
    }
  },
  adapterNeeds: () => ({
    methods: WEBAUTHN_METHODS,
    withoutAdapter: new MissingAdapter(
      `Passkeys (WebAuthn) store credentials and need an adapter with ${WEBAUTHN_METHODS.join(", ")}`,
    ),
  }),
}
