/**
 * The account's state stamp: what every grant (a mailed link, a pending second factor, a
 * session) is bound to when it is minted, and what moves when control of the account changes
 * (docs/design/pending-grants.md). It is the user's session version, kept where revocation
 * state is kept (`revocationBackend`): one number, so a move ends every session and voids
 * every pending grant in one write.
 */

import type { ResolvedConfig } from "../config/resolve.js"
import { revocationBackend } from "../revocation/index.js"
import { accountStamp, asStoreError } from "../revocation/stamp.js"
import { nowSeconds } from "../runtime/time.js"
import type { SessionContext } from "../session/context.js"
import { databaseSessionsOf } from "../session/database-sessions.js"
import { issueJwtSession } from "../session/issue.js"
import type { JWT } from "../token/jwt.js"
import type { ResponseCookie } from "../types/cookies.js"

export { accountStamp }

/** The events that change who controls an account, each a reason to move its state. */
export type StateMove =
  | "claim"
  | "reset"
  | "password-set"
  | "password-change"
  | "password-remove"
  | "email-change"
  | "two-factor-on"
  | "two-factor-off"
  | "passkey-removed"
  | "account-unlinked"
  | "sessions-ended"

/** The session of the request that moves the state, when it stays signed in. */
export interface KeptSession {
  /** The request's session context: where the re-issued session's cookies are written. */
  sctx: SessionContext
  /** The `sid` of a JWT session, the row `id` of a database session. */
  sessionId: string | undefined
  /** The decoded JWT (JWT sessions), re-issued at the new stamp. */
  token: JWT | null
  /** Its sign-in facts, carried over to a re-issued database session. */
  facts: { authTime?: number | undefined; amr?: readonly string[] | undefined }
  /** Whether the account's address is proven (a re-issued session says so). */
  proven: boolean
}

/**
 * Moves the account's state: every grant minted before is void and every session signed in
 * before ends — database rows are deleted, JWT sessions fail the stamp check. `keep` is the
 * requesting session when it stays signed in: it is re-issued at the new stamp (same `sid`,
 * sign-in time and `amr`). Returns the cookies that re-issue it.
 */
export async function moveAccountState(
  config: ResolvedConfig,
  userId: string,
  reason: StateMove,
  keep?: KeptSession,
): Promise<ResponseCookie[]> {
  const backend = revocationBackend(config)
  const sid = keep?.token?.sid
  // The bump forgets the user's session list: the kept session's record comes back as it was.
  const record =
    typeof sid === "string"
      ? (await backend.listSessions(userId)).find((r) => r.sid === sid)
      : undefined
  try {
    await backend.revokeUserSessions(userId)
  } catch (cause) {
    throw asStoreError(cause)
  }
  config.logger.debug("account state moved", { reason })
  if (config.session.strategy === "database") return endDatabaseSessions(config, userId, keep)
  await config.adapter?.deleteUserSessions?.(userId)
  if (!keep?.token || typeof sid !== "string" || config.session.revocation === "off") return []
  const stamp = await backend.userVersion(userId)
  const { iat: _iat, exp: _exp, jti: _jti, sv: _sv, unproven: _unproven, ...claims } = keep.token
  const next: JWT = {
    ...claims,
    ...(stamp > 0 ? { sv: stamp } : {}),
    ...(keep.proven ? {} : { unproven: true }),
  }
  const cookies = await issueJwtSession(keep.sctx, next)
  await backend.recordSession({
    sid,
    userId,
    authTime: record?.authTime ?? keep.facts.authTime ?? nowSeconds(),
    expires: record?.expires ?? nowSeconds() + config.session.maxAge,
    lastSeen: nowSeconds(),
    ...(record?.userAgent === undefined ? {} : { userAgent: record.userAgent }),
  })
  return cookies
}

/**
 * Database sessions: the user's rows go, but the kept one. An adapter that lists and deletes
 * rows one by one keeps the row itself; otherwise every row goes (or, for an adapter that cannot
 * delete a user's rows, the old stamp in their tokens ends them) and the kept session gets a new
 * row with the same sign-in facts.
 */
async function endDatabaseSessions(
  config: ResolvedConfig,
  userId: string,
  keep: KeptSession | undefined,
): Promise<ResponseCookie[]> {
  const adapter = config.adapter!
  if (keep?.sessionId !== undefined && adapter.listSessionsByUserId && adapter.deleteSessionById) {
    for (const row of await adapter.listSessionsByUserId(userId)) {
      if (row.id && row.id !== keep.sessionId) await adapter.deleteSessionById(userId, row.id)
    }
    return []
  }
  await adapter.deleteUserSessions?.(userId)
  if (!keep) return []
  const { cookies } = await databaseSessionsOf(keep.sctx.config).issue(
    keep.sctx,
    { id: userId, proven: keep.proven },
    { amr: keep.facts.amr ? [...keep.facts.amr] : undefined, authTime: keep.facts.authTime },
  )
  return cookies
}
