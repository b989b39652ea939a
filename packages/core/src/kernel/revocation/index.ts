/**
 * Session revocation for the core: which backend holds the state, the claims a new session
 * gets, and the check a read makes. The rules:
 *
 * - every JWT session carries `sid` (stable across re-issues), `auth_time` (sign-in time) and
 *   `sv` (the user's session version at sign-in; absent means 0);
 * - it is revoked when its `sid` was revoked, or its `sv` is below the user's version;
 * - `session.revocation` says when a read checks: every read (`strict`), at re-issue
 *   (`reissue`), never (`off`); `session.absoluteMaxAge` ends it from `auth_time` regardless.
 */

import type { ResolvedConfig } from "../config/resolve.js"
import type { StoreError } from "../errors/errors.js"
import type { Logger } from "../logger/logger.js"
import { isDefaultStore } from "../rate-limit/memory-store.js"
import { nowSeconds } from "../runtime/time.js"
import type { JWT } from "../token/jwt.js"
import { hasRevocationMethods } from "../types/adapters.js"
import { adapterRevocation } from "./adapter-backend.js"
import type { RevocationBackend, RevocationVerdict } from "./backend.js"
import { storeRevocation } from "./store-backend.js"
import { asStoreError } from "./store-error.js"

export type { RevocationBackend, SessionRecord } from "./backend.js"

const backends = new WeakMap<ResolvedConfig, RevocationBackend>()

/** The longest a session token can live: what revocation state must outlive. */
export function tokenLifetime(config: ResolvedConfig): number {
  return Math.max(config.session.maxAge, config.jwt.maxAge)
}

/**
 * A configured `store` (Redis) wins: it is what several instances share. Without one, an
 * adapter with the revocation methods keeps the state in the database. Otherwise the
 * process's memory store does, which is right for one instance.
 */
export function revocationBackend(config: ResolvedConfig): RevocationBackend {
  let backend = backends.get(config)
  if (backend) return backend
  // The default memory store keeps revocations safe from floods: they are security state, which
  // it never evicts (only stranger-keyed counters are).
  backend =
    isDefaultStore(config.store) && hasRevocationMethods(config.adapter)
      ? adapterRevocation(config.adapter, config.session.maxListedSessions)
      : storeRevocation(config.store, {
          lifetimeSeconds: tokenLifetime(config),
          maxListed: config.session.maxListedSessions,
        })
  backends.set(config, backend)
  return backend
}

/** The claims of a new session; records it for `listUserSessions` when revocation is on. */
export async function newSessionClaims(
  config: ResolvedConfig,
  logger: Logger,
  userId: string | undefined,
  userAgent?: string,
): Promise<Pick<JWT, "sid" | "auth_time" | "sv">> {
  const claims: Pick<JWT, "sid" | "auth_time" | "sv"> = {
    sid: crypto.randomUUID(),
    auth_time: nowSeconds(),
  }
  if (config.session.revocation === "off" || userId === undefined) return claims
  const backend = revocationBackend(config)
  try {
    const sv = await backend.userVersion(userId)
    if (sv > 0) claims.sv = sv
    await backend.recordSession({
      sid: claims.sid!,
      userId,
      authTime: claims.auth_time!,
      expires: sessionExpiry(config, claims.auth_time!, claims.auth_time!),
      ...(userAgent === undefined ? {} : { userAgent }),
    })
  } catch (cause) {
    // A session that cannot learn the user's version could never be ended by "sign out
    // everywhere": refuse the sign-in unless the app chose to fail open.
    if (config.session.revocationFailure === "closed") throw asStoreError(cause)
    logger.error(asStoreError(cause))
  }
  return claims
}

/** When a session issued (or re-issued) at `now` ends: `maxAge`, capped by `absoluteMaxAge`. */
export function sessionExpiry(config: ResolvedConfig, now: number, authTime: number): number {
  const { maxAge, absoluteMaxAge } = config.session
  const rolling = now + maxAge
  return absoluteMaxAge === undefined ? rolling : Math.min(rolling, authTime + absoluteMaxAge)
}

/**
 * Where `absoluteMaxAge` counts from: the sign-in (`auth_time`), or for a session whose
 * sign-in time is unknown, when Latchkey first re-issued it (`sst`). `undefined`: neither yet.
 */
export function absoluteClockStart(token: JWT): number | undefined {
  if (typeof token.auth_time === "number") return token.auth_time
  return typeof token.sst === "number" ? token.sst : undefined
}

/** Whether the session is past `absoluteMaxAge` (tokens with no clock start yet: never). */
export function pastAbsoluteEnd(config: ResolvedConfig, token: JWT, now: number): boolean {
  const { absoluteMaxAge } = config.session
  const start = absoluteClockStart(token)
  if (absoluteMaxAge === undefined || start === undefined) return false
  return start + absoluteMaxAge <= now
}

export type RevocationCheck =
  | { outcome: "valid" }
  | { outcome: "revoked"; reason: RevocationVerdict["reason"] }
  | { outcome: "unavailable"; error: StoreError }

/** Asks the backend about `token`. Never throws: an unreachable backend is `unavailable`. */
export async function checkRevocation(
  config: ResolvedConfig,
  token: JWT,
): Promise<RevocationCheck> {
  const sid = typeof token.sid === "string" ? token.sid : undefined
  const userId = typeof token.sub === "string" ? token.sub : undefined
  const sv = typeof token.sv === "number" ? token.sv : 0
  if (sid === undefined && userId === undefined) return { outcome: "valid" }
  try {
    const verdict = await revocationBackend(config).check(sid, userId, sv)
    return verdict.revoked ? { outcome: "revoked", reason: verdict.reason } : { outcome: "valid" }
  } catch (cause) {
    return { outcome: "unavailable", error: asStoreError(cause) }
  }
}

/**
 * Moves a re-issued session's end forward in its record (for `listUserSessions`). Display
 * only: a failure is logged, and the session goes on.
 */
export async function touchSessionRecord(
  config: ResolvedConfig,
  logger: Logger,
  token: JWT,
  expires: number,
): Promise<void> {
  if (config.session.revocation === "off") return
  if (typeof token.sub !== "string" || typeof token.sid !== "string") return
  try {
    await revocationBackend(config).recordSession({
      sid: token.sid,
      userId: token.sub,
      // Display only (the list's "signed in"): the recent-sign-in rule reads the token itself.
      authTime: absoluteClockStart(token) ?? nowSeconds(),
      expires,
      lastSeen: nowSeconds(),
    })
  } catch (cause) {
    logger.error(asStoreError(cause))
  }
}

/**
 * A sign-in in a browser that already held a JWT session replaces it: the old `sid` is revoked,
 * so a copy of the old cookie stops working (as the old row of a database session is deleted)
 * and "your devices" does not list a session nobody holds any more. Logged, never fatal.
 */
export async function revokeReplacedSession(
  config: ResolvedConfig,
  logger: Logger,
  previous: JWT | null,
  next: string | undefined,
): Promise<void> {
  if (config.session.revocation === "off" || typeof previous?.sid !== "string") return
  if (previous.sid === next) return
  try {
    await revocationBackend(config).revokeSession(
      previous.sid,
      nowSeconds() + tokenLifetime(config),
    )
  } catch (cause) {
    logger.error(asStoreError(cause))
  }
}
