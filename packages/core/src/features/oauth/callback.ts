/**
 * `GET|POST /callback/<provider>` for OAuth/OIDC, up to (not including) the sign-in itself:
 * checks, code exchange, ID-token validation, userinfo, `profile()`. The result feeds the
 * core's common sign-in path. Every failure is a typed `AuthError` whose message and details
 * hold no code, token, verifier or secret.
 */
import * as o from "oauth4webapi"
import {
  InvalidCheck,
  OAuthCallbackError,
  OAuthProfileParseError,
} from "../../kernel/errors/errors.js"
import type { ResponseCookie } from "../../kernel/types/cookies.js"
import type { Account, Profile, User } from "../../kernel/types/records.js"
import { checkCookieDeletions, openCheck } from "./checks.js"
import { clientAuthentication, clientOf } from "./client/client-auth.js"
import { getAuthorizationServer } from "./client/discovery.js"
import { toCallbackError } from "./client/errors.js"
import { guardedFetch, insecureFor } from "./client/http.js"
import { type ResolvedOAuthProvider, resolveOAuthProvider } from "./client/provider.js"
import type { AnyOAuthProviderConfig, TokenSet } from "./client/provider-config.js"
import type { OAuthFlowContext } from "./context.js"
import { planRedirect } from "./redirect-proxy.js"

export interface OAuthCallbackInput {
  readonly method: string
  /** The callback URL's query. */
  readonly query: URLSearchParams | Readonly<Record<string, string | undefined>>
  /** The parsed body of a POST (form_post). */
  readonly body?: URLSearchParams | Readonly<Record<string, unknown>> | undefined
  /** The request's cookies. */
  readonly cookies: Readonly<Record<string, string | undefined>>
}

export interface OAuthCallbackResult {
  /** From `profile()`: `id` is the provider's account id, `email` lower-cased. */
  readonly user: User & { id: string }
  /** For `linkAccount`: `account(tokens)` plus `provider`, `type`, `providerAccountId`. */
  readonly account: Account
  /** The raw profile (ID-token claims or userinfo JSON). */
  readonly profile: Profile
  readonly tokens: TokenSet
  /** Whether the provider vouches for `user.email` (gate for email-based account linking). */
  readonly emailVerified: boolean
  /** Deletions of the check cookies the request carried. */
  readonly cookies: ResponseCookie[]
}

/** The callback parameters: the body for POST (form_post), the query otherwise. */
export function callbackParams(input: OAuthCallbackInput): URLSearchParams {
  const source = input.method.toUpperCase() === "POST" ? input.body : input.query
  if (!source) return new URLSearchParams()
  if (source instanceof URLSearchParams) return new URLSearchParams(source)
  const out = new URLSearchParams()
  for (const [key, value] of Object.entries(source)) {
    if (typeof value === "string") out.set(key, value)
  }
  return out
}

/** Validate the callback of `provider` and fetch who signed in. */
export async function handleOAuthCallback(
  providerConfig: AnyOAuthProviderConfig,
  ctx: OAuthFlowContext,
  input: OAuthCallbackInput,
): Promise<OAuthCallbackResult> {
  const provider = resolveOAuthProvider(providerConfig)
  const cookies = checkCookieDeletions(ctx, input.cookies)
  const params = callbackParams(input)

  // 1. state: ours, for this provider, unused; then oauth4webapi compares it and checks `iss`.
  const expectedState = await openCheck(ctx, "state", provider.id, input.cookies)
  let as: o.AuthorizationServer
  try {
    as = await getAuthorizationServer(provider, ctx.now)
  } catch (error) {
    throw toCallbackError(error, provider.id, "discovery")
  }
  const client = clientOf(provider)
  let validated: URLSearchParams
  try {
    validated = o.validateAuthResponse(as, client, stripExtras(params), expectedState)
  } catch (error) {
    throw authResponseError(error, provider.id)
  }

  // 2. PKCE verifier and nonce cookies (after the error check: a refusal needs neither).
  const verifier = await openCheck(ctx, "pkceCodeVerifier", provider.id, input.cookies)
  const nonce = provider.checks.has("nonce")
    ? await openCheck(ctx, "nonce", provider.id, input.cookies)
    : undefined

  // 3. Code exchange, ID token.
  const { redirectUri } = planRedirect(provider, ctx)
  const { tokens, claims } = await exchangeCode(
    provider,
    as,
    client,
    validated,
    redirectUri,
    verifier,
    nonce,
  )

  // 4. Profile.
  const profile = await fetchProfile(provider, as, client, tokens, claims, params)

  // 5. `profile()` and the account.
  const { user, account } = await mapProfile(provider, profile, tokens)
  let emailVerified = false
  try {
    emailVerified = user.email ? provider.isEmailVerified(profile) === true : false
  } catch {
    emailVerified = false
  }
  ctx.logger?.debug("OAUTH_CALLBACK_OK", { provider: provider.id })
  return { user, account, profile, tokens, emailVerified, cookies }
}

/** Apple's `user` parameter is not part of the authorization response oauth4webapi knows. */
function stripExtras(params: URLSearchParams): URLSearchParams {
  const copy = new URLSearchParams(params)
  copy.delete("user")
  return copy
}

function authResponseError(error: unknown, providerId: string) {
  if (error instanceof o.OperationProcessingError) {
    const message = error.message
    const check = message.includes('"iss"')
      ? "iss"
      : message.includes('"state"')
        ? "state"
        : undefined
    if (check) {
      return new InvalidCheck(
        check === "iss"
          ? "The callback's issuer does not match the provider"
          : "The state does not match",
        { details: { provider: providerId, check, reason: "mismatch" } },
      )
    }
  }
  return toCallbackError(error, providerId, "authorization")
}

async function exchangeCode(
  provider: ResolvedOAuthProvider,
  as: o.AuthorizationServer,
  client: o.Client,
  validated: URLSearchParams,
  redirectUri: string,
  verifier: string,
  nonce: string | undefined,
): Promise<{ tokens: TokenSet; claims: o.IDToken | undefined }> {
  let response: Response
  try {
    response = await o.authorizationCodeGrantRequest(
      as,
      client,
      clientAuthentication(provider),
      validated,
      redirectUri,
      verifier,
      insecureFor(as.token_endpoint),
    )
    if (provider.token.conform) response = (await provider.token.conform(response)) ?? response
  } catch (error) {
    throw toCallbackError(error, provider.id, "token")
  }
  let result: o.TokenEndpointResponse
  try {
    result = await o.processAuthorizationCodeResponse(as, client, response, {
      ...(nonce !== undefined ? { expectedNonce: nonce } : {}),
      requireIdToken: provider.type === "oidc",
    })
  } catch (error) {
    throw toCallbackError(error, provider.id, "token")
  }
  if (result.id_token !== undefined) await verifyIdTokenSignature(provider, as, response)
  // Claims are looked up by the identity of oauth4webapi's result object: read them first.
  const claims = o.getValidatedIdTokenClaims(result)
  const tokens: TokenSet = { ...result }
  if (typeof result.expires_in === "number") {
    tokens.expires_at = Math.floor(Date.now() / 1000) + Math.floor(result.expires_in)
  }
  return { tokens, claims }
}

const jwksCaches = new Map<string, o.JWKSCacheInput>()

/**
 * The ID token came straight from the token endpoint over TLS, which OIDC Core §3.1.3.7
 * accepts as proof of origin; the signature is checked against the issuer's JWKS anyway
 * (cached per issuer), so a compromised or mis-routed token endpoint cannot mint identities.
 */
async function verifyIdTokenSignature(
  provider: ResolvedOAuthProvider,
  as: o.AuthorizationServer,
  response: Response,
): Promise<void> {
  if (!as.jwks_uri) {
    if (provider.type === "oidc") {
      throw new OAuthCallbackError(
        `Provider "${provider.id}": no jwks_uri to verify the ID token signature`,
        { details: { provider: provider.id, step: "id_token" } },
      )
    }
    return
  }
  let cache = jwksCaches.get(as.issuer)
  if (!cache) {
    cache = {}
    jwksCaches.set(as.issuer, cache)
  }
  try {
    await o.validateApplicationLevelSignature(as, response, {
      [o.jwksCache]: cache,
      ...insecureFor(as.jwks_uri),
    })
  } catch (error) {
    throw toCallbackError(error, provider.id, "id_token")
  }
}

async function fetchProfile(
  provider: ResolvedOAuthProvider,
  as: o.AuthorizationServer,
  client: o.Client,
  tokens: TokenSet,
  claims: o.IDToken | undefined,
  params: URLSearchParams,
): Promise<Profile> {
  let profile: Profile
  if (provider.type === "oidc") {
    if (!claims) {
      throw new OAuthCallbackError(`Provider "${provider.id}" returned no ID token`, {
        details: { provider: provider.id, step: "id_token" },
      })
    }
    profile = { ...(claims as unknown as Profile) }
    if (!provider.idToken) {
      const info = await requestUserinfo(provider, as, client, tokens)
      if (info.sub !== undefined && info.sub !== claims.sub) {
        throw new OAuthCallbackError(
          `Provider "${provider.id}": userinfo is about another subject than the ID token`,
          { details: { provider: provider.id, step: "userinfo" } },
        )
      }
      profile = { ...profile, ...info, sub: claims.sub }
    }
  } else {
    profile = await requestUserinfo(provider, as, client, tokens)
  }
  if (provider.userParam) {
    const user = parseJsonObject(params.get("user"))
    if (user) profile.user = user
  }
  return profile
}

async function requestUserinfo(
  provider: ResolvedOAuthProvider,
  as: o.AuthorizationServer,
  client: o.Client,
  tokens: TokenSet,
): Promise<Profile> {
  if (provider.userinfo.request) {
    try {
      const profile = await provider.userinfo.request({
        tokens,
        provider: {
          id: provider.id,
          clientId: provider.clientId,
          userinfo: { url: as.userinfo_endpoint ? new URL(as.userinfo_endpoint) : undefined },
          fetch: guardedFetch,
        },
      })
      if (!isObject(profile)) throw new TypeError("userinfo request returned no object")
      return profile as Profile
    } catch (error) {
      throw toCallbackError(error, provider.id, "userinfo")
    }
  }
  if (!as.userinfo_endpoint) {
    throw new OAuthCallbackError(`Provider "${provider.id}" has no userinfo endpoint`, {
      details: { provider: provider.id, step: "userinfo" },
    })
  }
  let response: Response
  try {
    response = await o.userInfoRequest(
      as,
      client,
      tokens.access_token!,
      insecureFor(as.userinfo_endpoint),
    )
  } catch (error) {
    throw toCallbackError(error, provider.id, "userinfo")
  }
  // Auth.js parses whatever comes back; an error page must not become a profile.
  if (!response.ok) {
    await response.body?.cancel()
    throw new OAuthCallbackError(`Provider "${provider.id}": the userinfo endpoint failed`, {
      details: { provider: provider.id, step: "userinfo", status: response.status },
    })
  }
  let body: unknown
  try {
    body = await response.json()
  } catch {
    body = undefined
  }
  if (!isObject(body)) {
    throw new OAuthCallbackError(
      `Provider "${provider.id}": the userinfo response is not a JSON object`,
      {
        details: { provider: provider.id, step: "userinfo", status: response.status },
      },
    )
  }
  return body as Profile
}

async function mapProfile(
  provider: ResolvedOAuthProvider,
  profile: Profile,
  tokens: TokenSet,
): Promise<{ user: User & { id: string }; account: Account }> {
  let mapped: User
  try {
    mapped = await provider.profile(profile, tokens)
  } catch (cause) {
    throw new OAuthProfileParseError(`Provider "${provider.id}": profile() threw`, {
      details: {
        provider: provider.id,
        reason: cause instanceof Error ? cause.name : typeof cause,
      },
    })
  }
  const id = isObject(mapped) ? (mapped as { id?: unknown }).id : undefined
  // Without a stable id every sign-in would create a new account (Auth.js uses a random UUID).
  if ((typeof id !== "string" && typeof id !== "number") || String(id) === "") {
    throw new OAuthProfileParseError(`Provider "${provider.id}": profile() returned no id`, {
      details: { provider: provider.id },
    })
  }
  const email = typeof mapped.email === "string" ? mapped.email.trim().toLowerCase() : mapped.email
  const user = { ...mapped, id: String(id), email: email ?? null }
  let extra: Partial<Account> | undefined | null
  try {
    extra = provider.account(tokens)
  } catch (cause) {
    throw new OAuthProfileParseError(`Provider "${provider.id}": account() threw`, {
      details: {
        provider: provider.id,
        reason: cause instanceof Error ? cause.name : typeof cause,
      },
    })
  }
  const account: Account = {
    ...(extra ?? {}),
    provider: provider.id,
    type: provider.type,
    providerAccountId: String(id),
  }
  return { user, account }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
}

function parseJsonObject(value: string | null): Record<string, unknown> | undefined {
  if (!value || value.length > 4096) return undefined
  try {
    const parsed: unknown = JSON.parse(value)
    return isObject(parsed) ? parsed : undefined
  } catch {
    return undefined
  }
}
