/**
 * A provider config turned into what the flow uses: endpoint URLs parsed, params flattened to
 * strings, checks settled (PKCE and state always, nonce for OIDC), the redirect proxy decided.
 * Computed once per provider object and cached; the app's object is never modified.
 */

import { envKey } from "../../../kernel/config/env.js"
import { InvalidEndpoints, InvalidProvider } from "../../../kernel/errors/errors.js"
import type { Awaitable } from "../../../kernel/types/awaitable.js"
import type { Account, Profile, User } from "../../../kernel/types/records.js"
import { assertAllowedUrl } from "./http.js"
import type { TokenSet } from "./provider-config.js"
import {
  type AnyOAuthProviderConfig,
  defaultAccount,
  defaultProfile,
  type EndpointParams,
  type OAuthClientOptions,
  type OAuthProviderConfig,
  type TokenEndpointConfig,
  type UserinfoEndpointConfig,
} from "./provider-config.js"

export type Check = "pkce" | "state" | "nonce"

export interface ResolvedEndpoint {
  /** `undefined`: taken from discovery. */
  readonly url: URL | undefined
  readonly params: Readonly<Record<string, string>>
}

export interface ResolvedOAuthProvider {
  readonly id: string
  readonly name: string
  readonly type: "oauth" | "oidc"
  readonly issuer: URL | undefined
  /** The issuer exactly as configured: `iss` values are compared as strings (RFC 9207). */
  readonly issuerId: string | undefined
  readonly wellKnown: URL | undefined
  readonly clientId: string
  readonly clientSecret: string | undefined
  readonly clientAuthMethod: NonNullable<OAuthClientOptions["token_endpoint_auth_method"]>
  readonly authorization: ResolvedEndpoint
  readonly token: ResolvedEndpoint & { readonly conform: TokenEndpointConfig["conform"] }
  readonly userinfo: ResolvedEndpoint & { readonly request: UserinfoEndpointConfig["request"] }
  readonly checks: ReadonlySet<Check>
  /** OIDC only: profile from the ID token (default) rather than userinfo. */
  readonly idToken: boolean
  /** `form_post`: the callback arrives as a cross-site POST. */
  readonly formPost: boolean
  readonly profile: (profile: Profile, tokens: TokenSet) => Awaitable<User>
  readonly account: (tokens: TokenSet) => Partial<Account> | undefined | null
  readonly isEmailVerified: (profile: Profile) => boolean
  readonly allowDangerousEmailAccountLinking: boolean
  /** The provider's own `redirectProxyUrl` (the config-wide one is passed per request). */
  readonly redirectProxyUrl: string | undefined
  /** Apple posts the user's name once, as a `user` JSON parameter next to the code. */
  readonly userParam: boolean
  /** Whether discovery is needed to fill an endpoint (or the JWKS of an OIDC issuer). */
  readonly needsDiscovery: boolean
}

/**
 * Which client credentials an OAuth/OIDC provider lacks (a public client, with
 * `token_endpoint_auth_method: "none"`, needs no secret). The config check warns about them at
 * the first request; resolving the provider for a sign-in refuses them.
 */
export function missingClientCredentials(p: {
  clientId?: unknown
  clientSecret?: unknown
  client?: { token_endpoint_auth_method?: unknown }
}): { clientId: boolean; clientSecret: boolean } {
  const isSet = (value: unknown) => typeof value === "string" && value !== ""
  const isPublicClient = p.client?.token_endpoint_auth_method === "none"
  return { clientId: !isSet(p.clientId), clientSecret: !isPublicClient && !isSet(p.clientSecret) }
}

const cache = new WeakMap<object, ResolvedOAuthProvider>()

/** The resolved form of an `oauth`/`oidc` provider (cached per provider object). */
export function resolveOAuthProvider(provider: AnyOAuthProviderConfig): ResolvedOAuthProvider {
  const hit = cache.get(provider)
  if (hit) return hit
  const resolved = Object.freeze(buildResolved(provider))
  cache.set(provider, resolved)
  return resolved
}

function buildResolved(raw: AnyOAuthProviderConfig): ResolvedOAuthProvider {
  // A provider object that still carries Auth.js-style `options` gets them applied here too.
  const p = (
    raw.options && typeof raw.options === "object" ? { ...raw, ...raw.options } : raw
  ) as OAuthProviderConfig
  if (p.type !== "oauth" && p.type !== "oidc") {
    throw new InvalidProvider(
      `Provider "${String((p as { id?: unknown }).id)}" is not an OAuth/OIDC provider`,
    )
  }
  const lacks = missingClientCredentials(p)
  if (lacks.clientId) {
    throw new InvalidProvider(
      `Provider "${p.id}" has no clientId (set it, or AUTH_${envKey(p.id)}_ID)`,
      { details: { provider: p.id, unusable: true } },
    )
  }
  const issuer = optionalUrl(p.issuer, p.id, "issuer")
  const wellKnown = optionalUrl(p.wellKnown, p.id, "wellKnown")
  const authorization = endpoint(p.authorization, p.id, "authorization")
  const token = endpoint(p.token, p.id, "token")
  const userinfo = endpoint(p.userinfo, p.id, "userinfo")

  const checks = new Set<Check>(["pkce", "state"])
  if (p.type === "oidc") checks.add("nonce")
  for (const check of p.checks ?? []) if (check === "nonce") checks.add("nonce")

  // Auth.js puts `openid profile email` on every provider whose authorization URL lacks a
  // scope; an OIDC provider without one would otherwise get no ID token at all.
  const authParams = { ...authorization.params }
  if (authParams.scope === undefined && p.type === "oidc") authParams.scope = "openid profile email"

  const idToken = p.type === "oidc" ? (p as { idToken?: boolean }).idToken !== false : false
  const userinfoRequest =
    typeof p.userinfo === "object" && p.userinfo !== null ? p.userinfo.request : undefined
  const needsDiscovery =
    p.type === "oidc" ||
    authorization.url === undefined ||
    token.url === undefined ||
    (userinfo.url === undefined && userinfoRequest === undefined)
  if (needsDiscovery && !issuer && !wellKnown) {
    const missing = !authorization.url ? "authorization" : !token.url ? "token" : "userinfo"
    throw new InvalidEndpoints(
      `Provider "${p.id}" has no issuer to discover and no ${missing} URL`,
      { details: { provider: p.id } },
    )
  }
  const method = p.client?.token_endpoint_auth_method ?? "client_secret_basic"
  if (!["client_secret_basic", "client_secret_post", "none"].includes(method)) {
    throw new InvalidProvider(
      `Provider "${p.id}" asks for client authentication "${String(method)}", which is not supported`,
    )
  }
  if (lacks.clientSecret) {
    throw new InvalidProvider(
      `Provider "${p.id}" has no clientSecret (set it, AUTH_${envKey(p.id)}_SECRET, or client.token_endpoint_auth_method "none")`,
      { details: { provider: p.id, unusable: true } },
    )
  }
  const profile = (p.profile ?? defaultProfile) as ResolvedOAuthProvider["profile"]
  return {
    id: p.id,
    name: p.name,
    type: p.type,
    issuer,
    issuerId: issuer ? (p.issuer as string) : undefined,
    wellKnown,
    clientId: p.clientId as string, // missingClientCredentials refused anything else
    clientSecret: p.clientSecret,
    clientAuthMethod: method,
    authorization: { url: authorization.url, params: Object.freeze(authParams) },
    token: { ...token, conform: typeof p.token === "object" ? p.token.conform : undefined },
    userinfo: { ...userinfo, request: userinfoRequest as UserinfoEndpointConfig["request"] },
    checks,
    idToken,
    formPost: authParams.response_mode === "form_post",
    profile,
    account: p.account ?? defaultAccount,
    isEmailVerified:
      (p.isEmailVerified as ResolvedOAuthProvider["isEmailVerified"]) ?? emailVerifiedClaim,
    allowDangerousEmailAccountLinking: p.allowDangerousEmailAccountLinking === true,
    redirectProxyUrl: typeof p.redirectProxyUrl === "string" ? p.redirectProxyUrl : undefined,
    userParam: (p as { userParam?: unknown }).userParam === true,
    needsDiscovery,
  }
}

/** `email_verified` as OIDC defines it; Apple and Cognito send the string `"true"`. */
export function emailVerifiedClaim(profile: Profile): boolean {
  const v = profile.email_verified as unknown
  return v === true || v === "true"
}

function optionalUrl(value: unknown, id: string, what: string): URL | undefined {
  if (value === undefined || value === null || value === "") return undefined
  if (typeof value !== "string" || !URL.canParse(value)) {
    throw new InvalidEndpoints(`Provider "${id}": ${what} is not a URL`, {
      details: { provider: id },
    })
  }
  const url = new URL(value)
  assertAllowedUrl(url, `Provider "${id}": ${what}`)
  return url
}

function endpoint(
  value: string | { url?: string; params?: EndpointParams } | undefined,
  id: string,
  what: string,
): ResolvedEndpoint {
  const config = typeof value === "string" ? { url: value } : (value ?? {})
  const url = optionalUrl(config.url, id, what)
  const params: Record<string, string> = {}
  // Params written into the URL count as defaults too (Discord's `?scope=identify+email`).
  if (url) {
    for (const [k, v] of url.searchParams) params[k] = v
  }
  for (const [k, v] of Object.entries(config.params ?? {})) {
    if (v === undefined) continue
    params[k] = typeof v === "object" ? JSON.stringify(v) : String(v)
  }
  return { url, params: Object.freeze(params) }
}
