/**
 * The authorization server of a provider: discovered (RFC 8414 / OIDC Discovery) and cached per
 * issuer for an hour, or built from the configured endpoint URLs. Auth.js fetches the discovery
 * document on every sign-in and every callback. Failures are not cached, and concurrent
 * requests for one issuer share a single fetch.
 */
import * as o from "oauth4webapi"
import { OAuthSignInError } from "../../../kernel/errors/errors.js"
import { assertAllowedUrl, insecureFor } from "./http.js"
import type { ResolvedOAuthProvider } from "./provider.js"

export const DISCOVERY_TTL_MS = 60 * 60 * 1000
/** Bound on cached issuers, so a config built per tenant cannot grow the cache forever. */
const MAX_ENTRIES = 256

interface Entry {
  expires: number
  value: Promise<o.AuthorizationServer>
}

const discovered = new Map<string, Entry>()

/** Forget every cached discovery document (tests; key rotation at the provider). */
export function clearDiscoveryCache(): void {
  discovered.clear()
}

/**
 * The provider's authorization server: discovery (cached) when an issuer is set and an
 * endpoint or the OIDC key set must come from it, configured URLs winning over discovered ones.
 */
export async function getAuthorizationServer(
  provider: ResolvedOAuthProvider,
  now: () => number = Date.now,
): Promise<o.AuthorizationServer> {
  let as: Mutable<o.AuthorizationServer>
  if (provider.needsDiscovery) {
    as = { ...(await discover(provider, now)) }
  } else {
    // No discovery: a synthetic server. Its issuer is only compared with an `iss` the provider
    // might send back, so the configured issuer (or the authorization URL's origin) is right.
    as = { issuer: provider.issuerId ?? provider.authorization.url!.origin }
  }
  if (provider.authorization.url) as.authorization_endpoint = stripQuery(provider.authorization.url)
  if (provider.token.url) as.token_endpoint = provider.token.url.href
  if (provider.userinfo.url) {
    const userinfo = new URL(provider.userinfo.url)
    for (const [key, value] of Object.entries(provider.userinfo.params)) {
      userinfo.searchParams.set(key, value)
    }
    as.userinfo_endpoint = userinfo.href
  }
  for (const key of ["authorization_endpoint", "token_endpoint", "userinfo_endpoint", "jwks_uri"]) {
    const value = as[key]
    if (typeof value === "string") {
      assertAllowedUrl(new URL(value), `Provider "${provider.id}": ${key}`)
    }
  }
  if (!as.authorization_endpoint || !as.token_endpoint) {
    throw new OAuthSignInError(
      `Provider "${provider.id}": the authorization server has no authorization or token endpoint`,
      { details: { provider: provider.id } },
    )
  }
  return as
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] }

function stripQuery(url: URL): string {
  const copy = new URL(url)
  copy.search = ""
  return copy.href
}

function discover(
  provider: ResolvedOAuthProvider,
  now: () => number,
): Promise<o.AuthorizationServer> {
  const key = `${provider.issuer?.href ?? ""} ${provider.wellKnown?.href ?? ""}`
  const hit = discovered.get(key)
  if (hit && hit.expires > now()) return hit.value
  if (hit) discovered.delete(key)
  const value = fetchDiscovery(provider)
  discovered.set(key, { expires: now() + DISCOVERY_TTL_MS, value })
  if (discovered.size > MAX_ENTRIES) {
    const oldest = discovered.keys().next().value
    if (oldest !== undefined) discovered.delete(oldest)
  }
  // A failure must not be served from the cache: the next sign-in tries again.
  value.catch(() => {
    if (discovered.get(key)?.value === value) discovered.delete(key)
  })
  return value
}

async function fetchDiscovery(provider: ResolvedOAuthProvider): Promise<o.AuthorizationServer> {
  const issuer = provider.issuer
  try {
    let response: Response
    if (provider.wellKnown) {
      response = await fetch(provider.wellKnown, {
        headers: { accept: "application/json" },
        redirect: "manual",
      })
    } else {
      response = await o.discoveryRequest(issuer!, {
        algorithm: provider.type === "oidc" ? "oidc" : "oauth2",
        ...insecureFor(issuer),
      })
    }
    // Without a configured issuer (wellKnown only) the document names it; it is then held
    // to that value for every ID token and `iss` parameter.
    const expected = issuer ?? new URL(await peekIssuer(response.clone()))
    return await o.processDiscoveryResponse(expected, response)
  } catch (cause) {
    throw new OAuthSignInError(`Provider "${provider.id}": discovery failed`, {
      details: { provider: provider.id, reason: describe(cause) },
    })
  }
}

async function peekIssuer(response: Response): Promise<string> {
  const body = (await response.json()) as { issuer?: unknown }
  if (typeof body.issuer !== "string") throw new TypeError("discovery document has no issuer")
  return body.issuer
}

/** An error summary safe for logs: oauth4webapi codes and messages carry no secrets. */
export function describe(error: unknown): string {
  if (error instanceof Error) {
    const code = (error as { code?: unknown }).code
    return typeof code === "string" ? `${code}: ${error.message}` : error.message
  }
  return String(error)
}
