/**
 * `POST /signin` and `POST /signin/<provider>` (CSRF-checked). What happens next is the
 * provider's feature's to say (`handlers.ts`).
 */

import { requireCsrf } from "../csrf/require.js"
import { InvalidProvider } from "../errors/errors.js"
import { resolveCallbackUrl } from "../http/callback-url.js"
import { pageUrl, type RequestContext } from "../http/context.js"
import { type Outcome, redirect } from "../http/outcome.js"
import { requireProvider } from "./provider.js"
import { signInHandlerOf } from "./signin-handlers.js"

export async function signInAction(ctx: RequestContext): Promise<Outcome> {
  await requireCsrf(ctx)
  if (ctx.providerId === undefined) return redirect(pageUrl(ctx, "signIn"))
  const provider = requireProvider(ctx)
  const handler = signInHandlerOf(provider)
  if (!handler) {
    // Passkeys start in the browser: options first, then the credential to the callback.
    const hint =
      provider.type === "webauthn"
        ? `; passkeys need JavaScript: GET webauthn-options/${provider.id}, then POST callback/${provider.id}`
        : ""
    throw new InvalidProvider(
      `Sign-in with "${provider.type}" providers is not available${hint}`.slice(0, 300),
    )
  }
  const callbackUrl = await resolveCallbackUrl(ctx)
  return handler(ctx, provider, { callbackUrl })
}
