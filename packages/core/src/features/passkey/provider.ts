/** The WebAuthn provider named in the URL, with defaults for raw (factory-less) configs. */

import { requireProvider } from "../../kernel/actions/provider.js"
import { InvalidProvider } from "../../kernel/errors/errors.js"
import type { RequestContext } from "../../kernel/http/context.js"
import {
  DEFAULT_MAX_PASSKEYS_PER_USER,
  DEFAULT_WEBAUTHN_TIMEOUT,
  type WebAuthnConfig,
} from "./provider-config.js"

export function requireWebAuthnProvider(ctx: RequestContext): WebAuthnConfig {
  const provider = requireProvider(ctx) as WebAuthnConfig
  if (provider.type !== "webauthn") {
    throw new InvalidProvider(`Provider "${provider.id}" is not a WebAuthn (passkey) provider`)
  }
  return {
    ...provider,
    userVerification: provider.userVerification ?? "required",
    timeout: provider.timeout ?? DEFAULT_WEBAUTHN_TIMEOUT,
    maxPasskeysPerUser: provider.maxPasskeysPerUser ?? DEFAULT_MAX_PASSKEYS_PER_USER,
  }
}

/** The message for a user at the passkey limit: what to do about it. */
export function passkeyLimitMessage(provider: WebAuthnConfig): string {
  return `This account already has ${provider.maxPasskeysPerUser} passkeys, the most allowed: remove one on the account page first`
}
