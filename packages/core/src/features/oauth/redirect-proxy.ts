/**
 * Redirect proxy (`redirectProxyUrl` / `AUTH_REDIRECT_PROXY_URL`): preview deployments send the
 * provider back to one stable deployment (the only redirect URI registered at the provider),
 * which bounces the answer to the preview. The preview's callback URL travels inside the sealed
 * `state` parameter; the proxy forwards only to a URL it recovers from a state it can decrypt,
 * so it cannot be turned into an open redirector.
 */
import { InvalidCheck } from "../../kernel/errors/errors.js"
import { readStateParam } from "./checks.js"
import type { ResolvedOAuthProvider } from "./client/provider.js"
import type { OAuthFlowContext } from "./context.js"

export interface RedirectPlan {
  /** The `redirect_uri` sent to the provider (and again at the token endpoint). */
  redirectUri: string
  /** Set when proxying: our own callback URL, sealed into `state` for the proxy. */
  proxiedOrigin: string | undefined
}

/**
 * Where the provider sends the user back. Behind a proxy (a proxy URL whose origin is not
 * ours) that is `<redirectProxyUrl>/callback/<id>`. form_post flows are never proxied: the
 * state cookie would have to cross sites twice (Auth.js drops the proxy there too).
 */
export function planRedirect(
  provider: ResolvedOAuthProvider,
  ctx: Pick<OAuthFlowContext, "callbackUrl" | "redirectProxyUrl">,
): RedirectPlan {
  const proxy = provider.redirectProxyUrl ?? ctx.redirectProxyUrl
  if (!proxy || provider.formPost || !URL.canParse(proxy)) {
    return { redirectUri: ctx.callbackUrl, proxiedOrigin: undefined }
  }
  const proxyUrl = new URL(proxy)
  if (proxyUrl.origin === new URL(ctx.callbackUrl).origin) {
    return { redirectUri: ctx.callbackUrl, proxiedOrigin: undefined }
  }
  const base = proxyUrl.href.replace(/\/+$/, "")
  return {
    redirectUri: `${base}/callback/${encodeURIComponent(provider.id)}`,
    proxiedOrigin: ctx.callbackUrl,
  }
}

export interface ProxyForwardOptions {
  /**
   * Extra allow-list of origins the proxy may forward to (e.g. `https://*.preview.example.com`
   * is checked by the predicate). Without it, any origin sealed with our secret is accepted:
   * only a deployment holding the secret can have minted it.
   */
  allowOrigin?: (origin: string) => boolean
}

/**
 * On the proxy side, before the normal callback: the URL to send the browser to when this
 * callback belongs to another deployment, or `null` to handle it here. The forwarded URL is the
 * sealed callback URL (same provider path, http(s) only) plus every parameter received.
 */
export async function proxyForwardUrl(
  provider: Pick<ResolvedOAuthProvider, "id">,
  ctx: Pick<OAuthFlowContext, "secret" | "callbackUrl">,
  params: URLSearchParams,
  options: ProxyForwardOptions = {},
): Promise<string | null> {
  const state = params.get("state")
  if (!state) return null
  const payload = await readStateParam(ctx, state)
  if (!payload) {
    throw new InvalidCheck("The state parameter could not be read by the redirect proxy", {
      details: { provider: provider.id, check: "state", reason: "proxy-undecodable" },
    })
  }
  if (payload.origin === undefined) return null
  const ours = new URL(ctx.callbackUrl)
  if (!URL.canParse(payload.origin)) throw proxyRefusal(provider.id, "unparseable")
  const target = new URL(payload.origin)
  if (target.origin === ours.origin) return null
  if (target.protocol !== "https:" && target.protocol !== "http:") {
    throw proxyRefusal(provider.id, "protocol")
  }
  if (target.username || target.password || target.search || target.hash) {
    throw proxyRefusal(provider.id, "shape")
  }
  // The sealed URL must be the same provider's callback on the other deployment.
  if (!target.pathname.endsWith(`/callback/${encodeURIComponent(provider.id)}`)) {
    throw proxyRefusal(provider.id, "path")
  }
  if (options.allowOrigin && !options.allowOrigin(target.origin)) {
    throw proxyRefusal(provider.id, "origin-not-allowed")
  }
  target.search = params.toString()
  return target.href
}

function proxyRefusal(provider: string, reason: string): InvalidCheck {
  return new InvalidCheck("The redirect proxy refused to forward this callback", {
    details: { provider, check: "state", reason: `proxy-${reason}` },
  })
}
