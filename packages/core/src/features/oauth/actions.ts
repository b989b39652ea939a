/**
 * The glue between the core's actions and the OAuth flow: the `signin` and `callback`
 * handlers for `oauth`/`oidc` providers, to register in `actions/signin/handlers.ts` and
 * `actions/callback/handlers.ts`. Everything else in `features/oauth` is request-context free.
 */

import { InvalidProvider } from "../../kernel/errors/errors.js"
import { resolveCallbackUrl } from "../../kernel/http/callback-url.js"
import { addCookies, type RequestContext } from "../../kernel/http/context.js"
import { type Outcome, redirect } from "../../kernel/http/outcome.js"
import { completeSignIn } from "../../kernel/sign-in/complete-sign-in.js"
import type { ProviderConfig } from "../../kernel/types/provider.js"
import { createAuthorizationRequest } from "./authorization-url.js"
import { callbackParams, handleOAuthCallback } from "./callback.js"
import { checkCookieDeletions } from "./checks.js"
import { resolveOAuthProvider } from "./client/provider.js"
import type { AnyOAuthProviderConfig } from "./client/provider-config.js"
import { oauthFlowContext } from "./flow-context.js"
import { planRedirect, proxyForwardUrl } from "./redirect-proxy.js"

function asOAuth(provider: ProviderConfig): AnyOAuthProviderConfig {
  if (provider.type !== "oauth" && provider.type !== "oidc") {
    throw new InvalidProvider(`Provider "${provider.id}" is not an OAuth/OIDC provider`)
  }
  return provider as AnyOAuthProviderConfig
}

/**
 * `POST /signin/<id>` (CSRF checked and callback URL cookie set by `signInAction`): redirect
 * to the provider with the sealed check cookies. The request's query may add authorization
 * parameters (never the protected ones).
 */
export async function oauthSignIn(
  ctx: RequestContext,
  provider: ProviderConfig,
  _input: { callbackUrl: string },
): Promise<Outcome> {
  const config = asOAuth(provider)
  const request = await createAuthorizationRequest(
    config,
    await oauthFlowContext(ctx, provider.id),
    ctx.parsed.query,
  )
  addCookies(ctx, request.cookies)
  return redirect(request.url)
}

/**
 * `GET|POST /callback/<id>`: on a redirect-proxy deployment, bounce a callback that belongs
 * to another deployment; otherwise validate it and finish through the common sign-in path.
 * The check cookies are deleted first, so an error response deletes them too.
 */
export async function oauthCallback(
  ctx: RequestContext,
  provider: ProviderConfig,
): Promise<Outcome> {
  const config = asOAuth(provider)
  const flow = await oauthFlowContext(ctx, provider.id)
  const input = {
    method: ctx.parsed.method,
    query: ctx.parsed.query,
    body: ctx.parsed.body,
    cookies: ctx.parsed.cookies,
  }

  const resolved = resolveOAuthProvider(config)
  const proxy = resolved.redirectProxyUrl ?? flow.redirectProxyUrl
  // Only the deployment the proxy URL names forwards (for any other, planRedirect proxies).
  if (proxy && planRedirect(resolved, flow).proxiedOrigin === undefined) {
    const forward = await proxyForwardUrl(resolved, flow, callbackParams(input))
    if (forward) return redirect(forward)
  }

  addCookies(ctx, checkCookieDeletions(flow, ctx.parsed.cookies))
  const result = await handleOAuthCallback(config, flow, input)
  const callbackUrl = await resolveCallbackUrl(ctx)
  return completeSignIn(ctx, provider, {
    user: result.user,
    account: result.account,
    profile: result.profile,
    emailVerified: result.emailVerified,
    callbackUrl,
  })
}
