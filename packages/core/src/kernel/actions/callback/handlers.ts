/** `/callback/<provider>` per provider kind. OAuth/OIDC, email and WebAuthn register here. */

import { credentialsCallback } from "../../../features/credentials/callback.js"
import { emailCallback } from "../../../features/email/actions.js"
import { oauthCallback } from "../../../features/oauth/actions.js"
import { webauthnCallback } from "../../../features/passkey/callback.js"
import type { ProviderConfig, ProviderType } from "../../../providers/index.js"
import type { RequestContext } from "../../context.js"
import type { Outcome } from "../../http/outcome.js"

export type CallbackHandler = (ctx: RequestContext, provider: ProviderConfig) => Promise<Outcome>

export const callbackHandlers: Partial<Record<ProviderType, CallbackHandler>> = {
  credentials: credentialsCallback,
  email: emailCallback,
  oauth: oauthCallback,
  oidc: oauthCallback,
  webauthn: webauthnCallback,
}
