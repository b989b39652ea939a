/**
 * `POST /signin/<provider>` per provider kind. OAuth/OIDC (authorization redirect) and email
 * (send the link) register here.
 */

import { emailSignIn } from "../../../features/email/actions.js"
import { oauthSignIn } from "../../../features/oauth/actions.js"
import type { ProviderConfig, ProviderType } from "../../../providers/index.js"
import { pageUrl, type RequestContext } from "../../context.js"
import { type Outcome, redirect } from "../../http/outcome.js"

export type SignInHandler = (
  ctx: RequestContext,
  provider: ProviderConfig,
  input: { callbackUrl: string },
) => Promise<Outcome>

export const signInHandlers: Partial<Record<ProviderType, SignInHandler>> = {
  // Credentials sign in by posting to /callback/<id>; here (as in Auth.js) they get the form.
  credentials: async (ctx, _provider, { callbackUrl }) =>
    redirect(pageUrl(ctx, "signIn", { callbackUrl })),
  email: emailSignIn,
  oauth: oauthSignIn,
  oidc: oauthSignIn,
}
