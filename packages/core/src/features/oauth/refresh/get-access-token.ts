/**
 * `getAccessToken(request, config, providerId)`: the signed-in user's access token at a
 * provider with `refresh` on, refreshed when it is within `skewSeconds` of expiry.
 *
 * Race safety, in order:
 * 1. a fresh token is returned as it is (no lock, no write);
 * 2. an outcome remembered for this refresh token (grace window) is reused;
 * 3. otherwise one refresh per refresh token runs in this process (`singleFlight`); its caller
 *    persists the rotated refresh token and the new access token BEFORE any caller gets it;
 * 4. a refusal with an adapter re-reads the row once: if another instance rotated the token
 *    meanwhile, its successor is used instead of declaring the refresh token dead.
 * A refusal (`invalid_grant`) clears the tokens, marks the session, fires `refreshTokenError`
 * and is remembered, so nobody asks the provider again with that token.
 */

import { currentSession } from "../../../kernel/account/current-session.js"
import type { AuthConfig } from "../../../kernel/config/auth-config.js"
import { type ResolvedConfig, resolveConfig } from "../../../kernel/config/resolve.js"
import {
  InvalidProvider,
  RefreshTokenError,
  TokenEndpointTimeout,
} from "../../../kernel/errors/errors.js"
import { emitEvent } from "../../../kernel/events/emit.js"
import { nowSeconds } from "../../../kernel/runtime/time.js"
import type { SessionContext } from "../../../kernel/session/context.js"
import { requestSessionContext } from "../../../kernel/session/get-session.js"
import type { ResponseCookie } from "../../../kernel/types/cookies.js"
import type { AnyOAuthProviderConfig } from "../client/provider-config.js"
import {
  flightKey,
  type GraceEntry,
  recallOutcome,
  rememberOutcome,
  singleFlight,
  withRefreshLock,
} from "./coordination.js"
import { refreshGrant } from "./grant.js"
import { accountRowHolder, sessionCookieHolder, type TokenHolder } from "./holders.js"
import { type ResolvedRefreshOptions, refreshOptionsOf } from "./options.js"
import { isFresh, needsSignIn, type ProviderTokens, successorOf } from "./tokens.js"

export interface AccessTokenResult {
  accessToken: string
  /** Seconds since the epoch; `undefined` when the provider gave no lifetime. */
  expiresAt: number | undefined
  tokenType: string | undefined
  /** Cookies to set on the response (a re-issued session cookie), often none. */
  cookies: ResponseCookie[]
}

/**
 * The access token of the signed-in user at `providerId`, or `null` when nobody is signed in or
 * the user has no account there. Throws `RefreshTokenError` when the provider refused the
 * refresh (sign in again), `TokenEndpointError` / `TokenEndpointTimeout` when it could not be
 * reached (transient), `InvalidProvider` when `providerId` has no `refresh` option.
 */
export async function getAccessToken(
  request: Request,
  config: AuthConfig,
  providerId: string,
): Promise<AccessTokenResult | null> {
  const resolved = resolveConfig(config)
  if (resolved.configError) throw resolved.configError
  const { provider, options } = refreshingProvider(resolved, providerId)
  const cookieHeader = request.headers.get("cookie")
  if (!cookieHeader) return null
  const sctx = requestSessionContext(resolved, request, cookieHeader)
  const holder = await holderFor(sctx, providerId)
  if (!holder) return null
  let tokens: ProviderTokens | null
  try {
    tokens = await currentTokens(holder, provider, options, resolved, true)
  } catch (error) {
    if (error instanceof RefreshTokenError) {
      // A shared error object (single flight): copy it, each request has its own cookies.
      const own = new RefreshTokenError(error.message, { details: error.details })
      own.cookies = holder.cookies
      throw own
    }
    throw error
  }
  if (!tokens) return null
  return {
    accessToken: tokens.access_token!,
    expiresAt: tokens.expires_at,
    tokenType: tokens.token_type,
    cookies: holder.cookies,
  }
}

function refreshingProvider(
  config: ResolvedConfig,
  providerId: string,
): { provider: AnyOAuthProviderConfig; options: ResolvedRefreshOptions } {
  const provider = config.providerById.get(providerId)
  const options = provider ? refreshOptionsOf(provider) : undefined
  if (!provider || !options) {
    throw new InvalidProvider(
      provider
        ? `Provider "${providerId}" has no \`refresh\` option: set \`refresh: true\` to use getAccessToken`
        : `No provider "${providerId}" is configured`,
      { details: { provider: providerId } },
    )
  }
  return { provider: provider as AnyOAuthProviderConfig, options }
}

/**
 * The holder of the signed-in user's tokens, or `null` when the request has no session. Who is
 * signed in comes from the one reader (`currentSession`): an ended session, one of an older
 * session version or past `absoluteMaxAge` gets no provider token.
 */
async function holderFor(sctx: SessionContext, providerId: string): Promise<TokenHolder | null> {
  const { config } = sctx
  const adapter = config.adapter
  const current = await currentSession(sctx)
  if (!current.signedIn) return null
  if (current.token) {
    const token = current.token as typeof current.token & { sub: string }
    if (!adapter) return sessionCookieHolder(sctx, token, providerId)
    return accountRowHolder(adapter, config.secret, current.userId, providerId, { sctx, token })
  }
  if (!adapter) return null
  return accountRowHolder(adapter, config.secret, current.userId, providerId)
}

async function currentTokens(
  holder: TokenHolder,
  provider: AnyOAuthProviderConfig,
  options: ResolvedRefreshOptions,
  config: ResolvedConfig,
  mayReread: boolean,
): Promise<ProviderTokens | null> {
  const tokens = await holder.read()
  if (!tokens) return null
  if (isFresh(tokens, options.skewSeconds, nowSeconds())) return tokens
  if (needsSignIn(tokens, nowSeconds()) || !tokens.refresh_token) {
    throw refused(provider.id, "no usable refresh token")
  }
  const coordination = { store: config.store, secret: config.secret, graceMs: options.graceMs }
  const key = await flightKey(provider.id, tokens.refresh_token)

  const outcome = await singleFlight(key, async (): Promise<RefreshOutcome> => {
    const remembered = await recallOutcome(coordination, key)
    if (remembered) return fromGrace(remembered, provider.id)
    const locked = await withRefreshLock(
      coordination,
      key,
      options.timeoutMs,
      () => runRefresh(holder, provider, options, config, tokens, key),
      (entry) => fromGrace(entry, provider.id),
    )
    if (locked) return locked
    throw new TokenEndpointTimeout(
      `Provider "${provider.id}": another instance's refresh did not finish within ${options.timeoutMs} ms`,
      { details: { provider: provider.id, step: "refresh-lock", timeoutMs: options.timeoutMs } },
    )
  })
  if (outcome.kind === "rotated-elsewhere") {
    // Someone else already spent this token; the row holds the successor.
    if (!mayReread) throw refused(provider.id, "refresh token refused")
    return currentTokens(holder, provider, options, config, false)
  }
  if (outcome.kind === "refused") {
    await holder.adoptFailure()
    throw outcome.error
  }
  await holder.adopt(outcome.tokens)
  return outcome.tokens
}

type RefreshOutcome =
  | { kind: "refreshed"; tokens: ProviderTokens }
  | { kind: "refused"; error: RefreshTokenError }
  | { kind: "rotated-elsewhere" }

function fromGrace(entry: GraceEntry, providerId: string): RefreshOutcome {
  return entry.ok
    ? { kind: "refreshed", tokens: entry.tokens }
    : { kind: "refused", error: refused(providerId, "refresh token already refused") }
}

/** The refresh itself, run by one caller per refresh token. Transient errors reject. */
async function runRefresh(
  holder: TokenHolder,
  provider: AnyOAuthProviderConfig,
  options: ResolvedRefreshOptions,
  config: ResolvedConfig,
  tokens: ProviderTokens,
  key: string,
): Promise<RefreshOutcome> {
  const coordination = { store: config.store, secret: config.secret, graceMs: options.graceMs }
  try {
    const refreshed = await refreshGrant(provider, tokens.refresh_token!, options.timeoutMs)
    const next = successorOf(tokens, refreshed)
    // Persisted before anyone is handed the new access token: if this write fails, nobody
    // uses tokens that the next request could not find.
    await holder.persist(next)
    await rememberOutcome(coordination, key, { ok: true, tokens: next })
    config.logger.debug("provider token refreshed", { provider: provider.id })
    return { kind: "refreshed", tokens: next }
  } catch (error) {
    if (!(error instanceof RefreshTokenError)) throw error
    // With an adapter the row may already hold a successor another instance stored.
    const again = await holder.read()
    if (again?.refresh_token && again.refresh_token !== tokens.refresh_token) {
      return { kind: "rotated-elsewhere" }
    }
    await holder.persistFailure()
    await rememberOutcome(coordination, key, { ok: false })
    config.logger.error(error)
    await emitEvent(config.events, config.logger, "refreshTokenError", {
      provider: provider.id,
      userId: holder.userId,
      error,
    })
    return { kind: "refused", error }
  }
}

function refused(providerId: string, reason: string): RefreshTokenError {
  return new RefreshTokenError(
    `Provider "${providerId}": ${reason}; the user must sign in with it again`,
    { details: { provider: providerId, reason } },
  )
}
