/**
 * The functions of `@latchkey/core` that take the app's configuration, as the app calls them:
 * each lets Auth.js-style plain provider objects through `plain-providers.ts` first, then runs
 * the kernel's (or the feature's) function of the same name.
 */
import {
  type AccessTokenResult,
  getAccessToken as featureGetAccessToken,
} from "./features/oauth/refresh/get-access-token.js"
import type { RecentAuthSession } from "./kernel/account/require-recent-auth.js"
import { requireRecentAuth as kernelRequireRecentAuth } from "./kernel/account/require-recent-auth.js"
import { Auth as kernelAuth } from "./kernel/auth.js"
import { revokeUserSessions as kernelRevokeUserSessions } from "./kernel/grants/end-sessions.js"
import type { AuthRequestOptions } from "./kernel/http/deferred.js"
import {
  listUserSessions as kernelListUserSessions,
  revokeSession as kernelRevokeSession,
} from "./kernel/revocation/api.js"
import type { SessionRecord } from "./kernel/revocation/backend.js"
import { getSession as kernelGetSession } from "./kernel/session/get-session.js"
import type { ResponseCookie } from "./kernel/types/cookies.js"
import type { Session } from "./kernel/types/records.js"
import { withPlainProviders } from "./plain-providers.js"
import type { AuthConfig } from "./types.js"

/**
 * Answers one auth request. `options.waitUntil` is the platform's way to keep work alive after
 * the response (Cloudflare's `ctx.waitUntil`): mail whose due depends on an account is sent then.
 */
export async function Auth(
  request: Request,
  config: AuthConfig,
  options?: AuthRequestOptions,
): Promise<Response> {
  return kernelAuth(request, await withPlainProviders(config), options)
}

/**
 * The session of `request`, plus cookies the caller must set (a refreshed token, or deletions
 * of an unreadable one). Throws `InvalidConfiguration` when the config is unusable.
 */
export async function getSession(
  request: Request,
  config: AuthConfig,
): Promise<{ session: Session | null; cookies: ResponseCookie[] }> {
  return kernelGetSession(request, await withPlainProviders(config))
}

/**
 * The signed-in user of `request` if their sign-in is recent (within `maxAge`, default
 * `session.recentAuthMaxAge`) and had every `factors` method. Throws `SessionRequired` (401)
 * when signed out, `ReauthenticationRequired` (403) when not recent.
 */
export async function requireRecentAuth(
  request: Request,
  config: AuthConfig,
  opts?: { maxAge?: number; factors?: readonly string[] },
): Promise<RecentAuthSession> {
  return kernelRequireRecentAuth(request, await withPlainProviders(config), opts)
}

/** Ends every session of `userId` (rows, revocation store) and what they had pending. */
export async function revokeUserSessions(config: AuthConfig, userId: string): Promise<void> {
  return kernelRevokeUserSessions(await withPlainProviders(config), userId)
}

/** Revokes one session by its id (`sid`). */
export async function revokeSession(config: AuthConfig, sid: string): Promise<void> {
  return kernelRevokeSession(await withPlainProviders(config), sid)
}

/** The sessions of `userId` the revocation store knows. */
export async function listUserSessions(
  config: AuthConfig,
  userId: string,
): Promise<SessionRecord[]> {
  return kernelListUserSessions(await withPlainProviders(config), userId)
}

/**
 * A current access token of the signed-in user at `providerId`, refreshed when due; `null` when
 * signed out or without an account there.
 */
export async function getAccessToken(
  request: Request,
  config: AuthConfig,
  providerId: string,
): Promise<AccessTokenResult | null> {
  return featureGetAccessToken(request, await withPlainProviders(config), providerId)
}
