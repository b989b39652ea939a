/**
 * OAuth 2 and OpenID Connect providers: the option names of Auth.js v5 (so provider configs
 * written for `@auth/core` type-check), plus the helpers every preset is built with.
 *
 * A provider is data. The flow itself lives in `features/oauth/*` and always applies PKCE (S256) and
 * `state`, and `nonce` for OIDC, whatever `checks` says: `checks` can add a check, never remove
 * one.
 *
 * (The types and helpers behind `@latchkey/core/providers/oauth`.)
 */
import type { Awaitable } from "../../../kernel/types/awaitable.js"
import type { CommonProviderOptions } from "../../../kernel/types/provider.js"
import type { Account, Profile, User } from "../../../kernel/types/records.js"

/** The checks a provider may ask for. `"none"` is accepted for Auth.js configs and ignored. */
export type OAuthCheck = "pkce" | "state" | "nonce" | "none"

/** What the token endpoint returned, plus `expires_at` (seconds since the epoch). */
export interface TokenSet {
  access_token?: string
  token_type?: string
  id_token?: string
  refresh_token?: string
  scope?: string
  expires_in?: number
  expires_at?: number
  [key: string]: unknown
}

/** Query parameters of an endpoint. `claims` may be an object: it is sent JSON-encoded. */
export type EndpointParams = Record<string, string | number | boolean | object | undefined>

export interface AuthorizationEndpointConfig {
  url?: string
  params?: EndpointParams
}

export interface TokenEndpointConfig {
  url?: string
  params?: EndpointParams
  /**
   * Reshape a non-conforming token response before it is validated (e.g. Twitch sends `scope`
   * as an array). Receives and returns a `Response`.
   */
  conform?: (response: Response) => Awaitable<Response | undefined>
}

/** The provider as the userinfo `request` hook sees it: endpoints resolved to URLs. */
export interface UserinfoRequestProvider {
  id: string
  clientId: string
  userinfo: { url: URL | undefined }
  /** `fetch` that only allows `http:` for loopback hosts. */
  fetch: (url: URL, init?: RequestInit) => Promise<Response>
}

export interface UserinfoEndpointConfig<P = Profile> {
  url?: string
  params?: EndpointParams
  /** Fetch the profile yourself (several calls, odd headers). Return the raw profile. */
  request?(context: { tokens: TokenSet; provider: UserinfoRequestProvider }): Awaitable<P>
}

/** Client authentication at the token endpoint. */
export interface OAuthClientOptions {
  /** Default `client_secret_basic` (RFC 6749 §2.3.1). `none` is for public clients. */
  token_endpoint_auth_method?: "client_secret_basic" | "client_secret_post" | "none"
  [key: string]: unknown
}

/**
 * Built-in refresh of the provider's access token (`getAccessToken`). `true` takes every default.
 */
export interface RefreshOptions {
  /** Seconds before `expires_at` at which the access token is refreshed. Default 60. */
  skewSeconds?: number
  /** Longest wait for the token endpoint, in ms; then `TokenEndpointTimeout`. Default 10 000. */
  timeoutMs?: number
  /**
   * How long, in ms, a request that still holds a just-rotated refresh token is given its
   * successor instead of spending the old one. Default 30 000.
   */
  graceMs?: number
}

/** How the button of the built-in sign-in page looks. */
export interface OAuthProviderButtonStyles {
  logo?: string
  bg?: string
  text?: string
  brandColor?: string
}

/**
 * Every OAuth/OIDC option (no index signature, so `Partial`/`Omit` keep the names). Hooks use
 * method syntax on purpose: a preset typed for `GitHubProfile` must still fit wherever any
 * provider is expected (method parameters are compared bivariantly).
 */
export interface OAuthFields<P = Profile> {
  /** Base of discovery (`<issuer>/.well-known/openid-configuration`) and the expected `iss`. */
  issuer?: string
  /** Discovery document URL when it is not at the standard place under `issuer`. */
  wellKnown?: string
  clientId?: string
  clientSecret?: string
  authorization?: string | AuthorizationEndpointConfig
  token?: string | TokenEndpointConfig
  userinfo?: string | UserinfoEndpointConfig<P>
  /** Default `["pkce", "state"]` (+ `"nonce"` for OIDC). Adds checks; cannot remove them. */
  checks?: OAuthCheck[]
  /** Turn the raw profile into the user. Throwing ends the sign-in (`OAuthProfileParseError`). */
  profile?(profile: P, tokens: TokenSet): Awaitable<User>
  /** Which token fields to keep on the stored account. Default: the standard ones. */
  account?(tokens: TokenSet): Partial<Account> | undefined | null
  style?: OAuthProviderButtonStyles
  /**
   * Let a new account of this provider join the existing user with the same email. Only
   * honoured when the provider says the email is verified (Auth.js does not check).
   */
  allowDangerousEmailAccountLinking?: boolean
  /** A stable deployment that receives the provider's redirect for preview deployments. */
  redirectProxyUrl?: string
  client?: OAuthClientOptions
  /**
   * Latchkey extension: keep this provider's access token fresh for `getAccessToken`, with the
   * refresh-token grant. Tokens stay on the server: encrypted in the `accounts` row with an
   * adapter, in the encrypted session cookie without one.
   */
  refresh?: boolean | RefreshOptions
  /**
   * Latchkey extension: whether the provider vouches for the email of this profile. Default:
   * the `email_verified` claim (boolean, or the string `"true"` as Apple and Cognito send it).
   */
  isEmailVerified?(profile: P): boolean
  /** Auth.js factories park the user's options here; Latchkey factories merge them up front. */
  options?: Record<string, unknown>
}

/** A plain OAuth 2 provider: the profile comes from the userinfo endpoint. */
export interface OAuthConfig<P = Profile> extends CommonProviderOptions, OAuthFields<P> {
  type: "oauth"
  /** Provider-specific extras (GitHub `enterprise`, …) and Auth.js options Latchkey ignores. */
  [key: string]: unknown
}

/** An OpenID Connect provider: the profile comes from the validated ID token. */
export interface OIDCConfig<P = Profile> extends CommonProviderOptions, OAuthFields<P> {
  type: "oidc"
  /** Default `true`: read the profile from the ID token. `false`: fetch userinfo as well. */
  idToken?: boolean
  [key: string]: unknown
}

/** Either kind. The flow in `features/oauth` accepts both. */
export type OAuthProviderConfig<P = Profile> = OAuthConfig<P> | OIDCConfig<P>

/**
 * Any OAuth/OIDC provider, whatever its profile type (the flow only treats the profile as
 * data). `any` because a preset's profile type (Apple's string `email_verified`) need not fit
 * the generic `Profile`.
 */
// biome-ignore lint/suspicious/noExplicitAny: see above
export type AnyOAuthProviderConfig = OAuthProviderConfig<any>

/** What an app passes to a preset factory: any field may be overridden. */
export type OAuthUserConfig<P = Profile> = Partial<OAuthFields<P>> & {
  id?: string
  name?: string
  [key: string]: unknown
}
export type OIDCUserConfig<P = Profile> = OAuthUserConfig<P> & { idToken?: boolean }

/** What a preset supplies: at least `id` and `name`. */
export type ProviderDefaults<P> = OAuthFields<P> & {
  id: string
  name: string
  [key: string]: unknown
}

/** The default `profile()`: the standard OIDC claims, with the usual fallbacks for the name. */
export function defaultProfile(profile: Profile): User {
  const id = profile.sub ?? (profile as { id?: unknown }).id
  return stripUndefined({
    id: id === undefined || id === null ? undefined : String(id),
    name:
      profile.name ??
      (profile.nickname as string | undefined) ??
      (profile.preferred_username as string | undefined) ??
      null,
    email: profile.email ?? null,
    image: typeof profile.picture === "string" ? profile.picture : null,
  })
}

/** The default `account()`: the token fields an adapter stores (Auth.js's list). */
export function defaultAccount(tokens: TokenSet): Partial<Account> {
  return stripUndefined({
    access_token: tokens.access_token,
    id_token: tokens.id_token,
    refresh_token: tokens.refresh_token,
    expires_at: tokens.expires_at,
    scope: tokens.scope,
    token_type: tokens.token_type,
    session_state: tokens.session_state as string | undefined,
  })
}

function stripUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T
}

const ENDPOINT_KEYS = ["authorization", "token", "userinfo"] as const

/**
 * Merge the app's options over a preset's defaults. Endpoint objects merge one level deeper
 * (so `authorization: { params: { prompt: "consent" } }` keeps the preset's URL and scope), and
 * `undefined` never erases a default (the env-filling pass calls factories with
 * `{ issuer: undefined, … }`).
 */
export function mergeProviderOptions<C extends OAuthProviderConfig>(
  defaults: C,
  options: Record<string, unknown> | undefined,
): C {
  const out: Record<string, unknown> = { ...defaults }
  for (const [key, value] of Object.entries(options ?? {})) {
    if (value === undefined) continue
    const base = out[key]
    if ((ENDPOINT_KEYS as readonly string[]).includes(key)) {
      out[key] = mergeEndpoint(base, value)
    } else if (key === "client" || key === "style") {
      out[key] = { ...(base as object | undefined), ...(value as object) }
    } else {
      out[key] = value
    }
  }
  // The merge is done here, once: the core must not shallow-merge `options` again.
  delete out.options
  return out as C
}

function mergeEndpoint(base: unknown, value: unknown): unknown {
  if (typeof value === "string") {
    // A new URL replaces the default URL but keeps the default params (scope, …).
    if (base && typeof base === "object") return { ...(base as object), url: value }
    return value
  }
  if (!value || typeof value !== "object") return value
  const b: AuthorizationEndpointConfig =
    typeof base === "string" ? { url: base } : ((base as AuthorizationEndpointConfig) ?? {})
  const v = value as AuthorizationEndpointConfig
  return { ...b, ...v, params: { ...b.params, ...v.params } }
}

/** An OAuth 2 provider's data from preset defaults and the app's options (without its feature). */
export function oauthProviderData<P>(
  defaults: ProviderDefaults<P>,
  options: OAuthUserConfig<P> | undefined,
): OAuthConfig<P> {
  return mergeProviderOptions(
    { ...defaults, type: "oauth" } as OAuthConfig<P> as unknown as OAuthProviderConfig,
    options as Record<string, unknown>,
  ) as unknown as OAuthConfig<P>
}

/** An OIDC provider's data from preset defaults and the app's options (without its feature). */
export function oidcProviderData<P>(
  defaults: ProviderDefaults<P> & { idToken?: boolean },
  options: OIDCUserConfig<P> | undefined,
): OIDCConfig<P> {
  return mergeProviderOptions(
    { ...defaults, type: "oidc" } as OIDCConfig<P> as unknown as OAuthProviderConfig,
    options as Record<string, unknown>,
  ) as unknown as OIDCConfig<P>
}

/**
 * The standard claims (OpenID Connect Core §5.1) that identity servers such as Auth0,
 * Authentik, Keycloak, Okta, ZITADEL and Cognito put in their ID tokens.
 */
export interface StandardOIDCProfile {
  sub: string
  email?: string
  /** Cognito sends the string `"true"`; the callback reads either form. */
  email_verified?: boolean | "true" | "false"
  name?: string
  preferred_username?: string
  nickname?: string
  given_name?: string
  family_name?: string
  picture?: string
  [claim: string]: unknown
}

/** The `profile()` of a server that sends standard claims: the best display name it has. */
export function standardOidcProfile(profile: StandardOIDCProfile): User & { id: string } {
  return {
    id: profile.sub,
    name: profile.name ?? profile.preferred_username ?? profile.nickname ?? null,
    email: profile.email ?? null,
    image: profile.picture ?? null,
  }
}
