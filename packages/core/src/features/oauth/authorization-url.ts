/**
 * `POST /signin/<provider>` for OAuth/OIDC: the authorization URL and its check cookies.
 * PKCE (S256) and `state` are always sent, `nonce` for OIDC, whatever the discovery document
 * advertises: a server that ignores PKCE loses nothing, one that supports it without saying so
 * gets it (Auth.js means to drop PKCE in that case; Latchkey never downgrades).
 */
import * as o from "oauth4webapi"
import type { ResponseCookie } from "../../kernel/types/cookies.js"
import { createNonce, createPkce, createState } from "./checks.js"
import { getAuthorizationServer } from "./client/discovery.js"
import { resolveOAuthProvider } from "./client/provider.js"
import type { AnyOAuthProviderConfig } from "./client/provider-config.js"
import type { OAuthFlowContext } from "./context.js"
import { planRedirect } from "./redirect-proxy.js"

/**
 * Parameters the flow owns. A query on `/signin/<id>` may add parameters (`prompt`,
 * `login_hint`, …) but never these: each of them can break a check or send the code elsewhere.
 * `request`/`request_uri` (JAR) could smuggle all of them at once, `response_mode` would move
 * the answer out of reach of our cookies.
 */
export const PROTECTED_PARAMS: ReadonlySet<string> = new Set([
  "client_id",
  "client_secret",
  "redirect_uri",
  "response_type",
  "response_mode",
  "state",
  "nonce",
  "code_challenge",
  "code_challenge_method",
  "request",
  "request_uri",
])

/** Core fields that reach `/signin/<id>` but are not meant for the provider. */
const CORE_FIELDS: ReadonlySet<string> = new Set(["callbackUrl", "csrfToken"])

export interface AuthorizationRequest {
  /** Where to send the browser (302). */
  url: string
  /** Sealed check cookies to set with the redirect. */
  cookies: ResponseCookie[]
}

export type AuthorizationParamsInput =
  | URLSearchParams
  | Readonly<Record<string, string | undefined>>
  | undefined

/**
 * Build the authorization request of `provider`.
 *
 * `extraParams` are the sign-in request's query parameters (Auth.js forwards them all):
 * protected parameters among them are ignored.
 */
export async function createAuthorizationRequest(
  providerConfig: AnyOAuthProviderConfig,
  ctx: OAuthFlowContext,
  extraParams?: AuthorizationParamsInput,
): Promise<AuthorizationRequest> {
  const provider = resolveOAuthProvider(providerConfig)
  const as = await getAuthorizationServer(provider, ctx.now)
  const { redirectUri, proxiedOrigin } = planRedirect(provider, ctx)

  const url = new URL(as.authorization_endpoint!)
  const params = url.searchParams
  for (const [key, value] of Object.entries(provider.authorization.params)) {
    if (!PROTECTED_PARAMS.has(key) || key === "response_mode") params.set(key, value)
  }
  for (const [key, value] of entriesOf(extraParams)) {
    if (PROTECTED_PARAMS.has(key) || CORE_FIELDS.has(key)) {
      ctx.logger?.debug("OAUTH_AUTHORIZATION_PARAM_IGNORED", { provider: provider.id, param: key })
      continue
    }
    params.set(key, value)
  }
  if (provider.type === "oidc") {
    const scope = params.get("scope")
    if (!scope) params.set("scope", "openid profile email")
    else if (!scope.split(" ").includes("openid")) params.set("scope", `openid ${scope}`)
  }
  params.set("response_type", "code")
  params.set("client_id", provider.clientId)
  params.set("redirect_uri", redirectUri)

  const crossSite = provider.formPost
  const cookies: ResponseCookie[] = []
  const state = await createState(ctx, provider.id, crossSite, proxiedOrigin)
  params.set("state", state.state)
  cookies.push(state.cookie)

  const pkce = await createPkce(ctx, provider.id, crossSite)
  params.set("code_challenge", await o.calculatePKCECodeChallenge(pkce.verifier))
  params.set("code_challenge_method", "S256")
  cookies.push(pkce.cookie)

  if (provider.checks.has("nonce")) {
    const nonce = await createNonce(ctx, provider.id, crossSite)
    params.set("nonce", nonce.nonce)
    cookies.push(nonce.cookie)
  }
  if (
    Array.isArray(as.code_challenge_methods_supported) &&
    !as.code_challenge_methods_supported.includes("S256")
  ) {
    // Sent anyway (see the module comment); said once per sign-in so the app can tell.
    ctx.logger?.debug("OAUTH_PKCE_S256_NOT_ADVERTISED", { provider: provider.id })
  }
  ctx.logger?.debug("OAUTH_AUTHORIZATION_URL", {
    provider: provider.id,
    endpoint: as.authorization_endpoint,
    proxied: proxiedOrigin !== undefined,
  })
  return { url: url.href, cookies }
}

function entriesOf(input: AuthorizationParamsInput): [string, string][] {
  if (!input) return []
  if (input instanceof URLSearchParams) return [...input.entries()]
  return Object.entries(input).filter((e): e is [string, string] => typeof e[1] === "string")
}
