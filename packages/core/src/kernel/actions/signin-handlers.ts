/**
 * `POST /signin/<provider>`: the provider's feature answers (an OAuth authorization redirect,
 * an email link sent); a credentials provider's sign-in is a POST to its callback, so its
 * `/signin` leads to the sign-in page, as in Auth.js.
 */

import { type Feature, featureOf } from "../feature/feature.js"
import { pageUrl, type RequestContext } from "../http/context.js"
import { type Outcome, redirect } from "../http/outcome.js"
import type { ProviderConfig } from "../types/provider.js"

export type SignInHandler = NonNullable<Feature["signIn"]>

/** The handler for `provider`, or `undefined` when its kind starts elsewhere (passkeys). */
export function signInHandlerOf(provider: ProviderConfig): SignInHandler | undefined {
  const own = featureOf(provider)?.signIn
  if (own) return own
  if (provider.type === "credentials") {
    return async (ctx: RequestContext, _provider, { callbackUrl }): Promise<Outcome> =>
      redirect(pageUrl(ctx, "signIn", { callbackUrl }))
  }
  return undefined
}
