/**
 * The refresh-token grant (RFC 6749 §6) through oauth4webapi, against the provider's token
 * endpoint (discovered and cached like sign-in's). The whole exchange is bounded by a timeout.
 * Failures are typed: `invalid_grant` is a refusal (`RefreshTokenError`, never retried), the
 * rest is transient (`TokenEndpointError`, `TokenEndpointTimeout`). No error carries a token
 * or the response body.
 */
import * as o from "oauth4webapi"
import {
  AuthError,
  RefreshTokenError,
  TokenEndpointError,
  TokenEndpointTimeout,
} from "../../../kernel/errors/errors.js"
import { nowSeconds } from "../../../kernel/runtime/time.js"
import { clientAuthentication, clientOf } from "../client/client-auth.js"
import { getAuthorizationServer } from "../client/discovery.js"
import { safeCode } from "../client/errors.js"
import { insecureFor } from "../client/http.js"
import { resolveOAuthProvider } from "../client/provider.js"
import type { AnyOAuthProviderConfig } from "../client/provider-config.js"

/** What a refresh yields. `refresh_token` is the rotated one, if the provider rotated it. */
export interface RefreshedTokens {
  access_token: string
  token_type?: string
  refresh_token?: string
  id_token?: string
  scope?: string
  /** Seconds since the epoch; `undefined` when the provider gives no lifetime. */
  expires_at?: number
}

export async function refreshGrant(
  config: AnyOAuthProviderConfig,
  refreshToken: string,
  timeoutMs: number,
): Promise<RefreshedTokens> {
  const provider = resolveOAuthProvider(config)
  const signal = AbortSignal.timeout(timeoutMs)
  try {
    const as = await abortable(getAuthorizationServer(provider), signal)
    const client = clientOf(provider)
    let response = await o.refreshTokenGrantRequest(
      as,
      client,
      clientAuthentication(provider),
      refreshToken,
      { signal, ...insecureFor(as.token_endpoint) },
    )
    if (provider.token.conform) response = (await provider.token.conform(response)) ?? response
    const result = await abortable(o.processRefreshTokenResponse(as, client, response), signal)
    return toRefreshed(result)
  } catch (error) {
    throw refreshError(error, provider.id, signal.aborted, timeoutMs)
  }
}

function toRefreshed(result: o.TokenEndpointResponse): RefreshedTokens {
  const out: RefreshedTokens = { access_token: result.access_token }
  if (result.token_type) out.token_type = result.token_type
  if (typeof result.refresh_token === "string") out.refresh_token = result.refresh_token
  if (typeof result.id_token === "string") out.id_token = result.id_token
  if (typeof result.scope === "string") out.scope = result.scope
  if (typeof result.expires_in === "number") {
    out.expires_at = nowSeconds() + Math.floor(result.expires_in)
  }
  return out
}

/** Discovery and response parsing do not take the signal; the timeout still ends the wait. */
function abortable<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason)
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason)
    signal.addEventListener("abort", onAbort, { once: true })
    promise.then(
      (value) => {
        signal.removeEventListener("abort", onAbort)
        resolve(value)
      },
      (error: unknown) => {
        signal.removeEventListener("abort", onAbort)
        reject(error)
      },
    )
  })
}

function refreshError(
  error: unknown,
  providerId: string,
  timedOut: boolean,
  timeoutMs: number,
): AuthError {
  const details: Record<string, unknown> = { provider: providerId, step: "refresh" }
  if (error instanceof o.ResponseBodyError) {
    details.error = safeCode(error.error)
    details.status = error.status
    if (error.error === "invalid_grant") {
      return new RefreshTokenError(
        `Provider "${providerId}" refused the refresh token; the user must sign in again`,
        { details },
      )
    }
    return new TokenEndpointError(
      `Provider "${providerId}": the token endpoint refused the refresh request`,
      { details },
    )
  }
  if (timedOut) {
    details.timeoutMs = timeoutMs
    return new TokenEndpointTimeout(
      `Provider "${providerId}": the token endpoint did not answer within ${timeoutMs} ms`,
      { details },
    )
  }
  if (error instanceof AuthError) {
    return new TokenEndpointError(`Provider "${providerId}": ${error.message}`, {
      details: { ...details, cause: error.type },
    })
  }
  if (error instanceof o.OperationProcessingError) {
    details.code = error.code
    details.reason = error.message
    details.status = (error.cause as { status?: unknown } | undefined)?.status
    return new TokenEndpointError(
      `Provider "${providerId}": the token endpoint's refresh response is invalid`,
      { details },
    )
  }
  // Network failures, TypeErrors from fetch: the class name only.
  details.reason = error instanceof Error ? error.name : typeof error
  return new TokenEndpointError(`Provider "${providerId}": the refresh request failed`, { details })
}
