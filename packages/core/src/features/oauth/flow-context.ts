/** The `OAuthFlowContext` of a core request (the only place the flow touches core types). */

import { actionUrl, type RequestContext } from "../../kernel/http/context.js"
import { sessionBinding } from "../../kernel/session/binding.js"
import type { ProviderConfig } from "../../kernel/types/provider.js"
import type { OAuthProviderConfig } from "./client/provider-config.js"
import type { OAuthFlowContext } from "./context.js"

export async function oauthFlowContext(
  ctx: RequestContext,
  providerId: string,
): Promise<OAuthFlowContext> {
  return {
    session: await sessionBinding(ctx),
    secret: ctx.config.secret,
    cookies: ctx.cookies,
    callbackUrl: actionUrl(ctx, "callback", providerId),
    redirectProxyUrl: ctx.config.redirectProxyUrl,
    logger: ctx.logger,
    store: ctx.config.store,
  }
}

export function isOAuthProvider(
  provider: ProviderConfig,
): provider is ProviderConfig & OAuthProviderConfig {
  return provider.type === "oauth" || provider.type === "oidc"
}
