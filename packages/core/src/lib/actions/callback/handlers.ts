/** `/callback/<provider>` per provider kind. OAuth/OIDC, email and WebAuthn register here. */
import type { ProviderConfig, ProviderType } from "../../../providers/index.js"
import type { RequestContext } from "../../context.js"
import { emailCallback } from "../../email/actions.js"
import type { Outcome } from "../../http/outcome.js"
import { oauthCallback } from "../../oauth/actions.js"
import { webauthnCallback } from "../../webauthn/callback.js"
import { credentialsCallback } from "./credentials.js"

export type CallbackHandler = (ctx: RequestContext, provider: ProviderConfig) => Promise<Outcome>

export const callbackHandlers: Partial<Record<ProviderType, CallbackHandler>> = {
  credentials: credentialsCallback,
  email: emailCallback,
  oauth: oauthCallback,
  oidc: oauthCallback,
  webauthn: webauthnCallback,
}
