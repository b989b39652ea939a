/**
 * The signed-in user's sessions ("your devices") for both strategies, by public id only:
 * - JWT sessions: the revocation records (`sid`), ended by revoking the `sid`; "all others"
 *   moves the account's state and re-issues the current session at the new stamp.
 *   With `session.revocation: "off"` nothing is recorded or checked, so there is nothing to
 *   list or end: the section is `null` and the changes answer 501.
 * - Database sessions: the rows (their `id` column, never the token), ended by deleting rows;
 *   works whatever `session.revocation` says.
 */

import { hasMethods, requireMethods } from "../../kernel/account/adapter-support.js"
import type { ResolvedConfig } from "../../kernel/config/resolve.js"
import { AccountItemNotFound, NotSupportedByAdapter } from "../../kernel/errors/errors.js"
import { type KeptSession, moveAccountState } from "../../kernel/grants/account-state.js"
import { revocationBackend, tokenLifetime } from "../../kernel/revocation/index.js"
import { nowSeconds } from "../../kernel/runtime/time.js"

export interface DeviceSession {
  /** Public id: the `sid` of a JWT session, the row id of a database session. */
  id: string
  createdAt: string | null
  lastSeenAt: string | null
  userAgent: string | null
  current: boolean
}

const DB_METHODS = ["listSessionsByUserId", "deleteSessionById"] as const
const iso = (date: Date | null | undefined) =>
  date instanceof Date && !Number.isNaN(date.getTime()) ? date.toISOString() : null
const isoSeconds = (s: number | undefined) =>
  typeof s === "number" ? new Date(s * 1000).toISOString() : null

export function jwtSessionsUnsupported(): NotSupportedByAdapter {
  return new NotSupportedByAdapter(
    'JWT sessions with session.revocation "off" keep no server state: no session can be listed or ended',
    { details: { method: "session.revocation" } },
  )
}

export function deviceSessionsSupported(config: ResolvedConfig): boolean {
  return config.session.strategy === "jwt"
    ? config.session.revocation !== "off"
    : hasMethods(config, DB_METHODS)
}

export async function listDeviceSessions(
  config: ResolvedConfig,
  userId: string,
  currentId: string | undefined,
): Promise<DeviceSession[] | null> {
  if (!deviceSessionsSupported(config)) return null
  if (config.session.strategy === "jwt") {
    const records = await revocationBackend(config).listSessions(userId)
    return records.map((r) => ({
      id: r.sid,
      createdAt: isoSeconds(r.authTime),
      lastSeenAt: isoSeconds(r.lastSeen ?? r.authTime),
      userAgent: r.userAgent ?? null,
      current: r.sid === currentId,
    }))
  }
  const rows = await config.adapter!.listSessionsByUserId!(userId)
  return rows
    .filter((row) => typeof row.id === "string")
    .map((row) => ({
      id: row.id!,
      createdAt: iso(row.createdAt),
      lastSeenAt: iso(row.lastSeenAt ?? row.createdAt),
      userAgent: row.userAgent ?? null,
      current: row.id === currentId,
    }))
}

/** Ends the user's session `id`; `AccountItemNotFound` when it is not one of theirs. */
export async function revokeDeviceSession(
  config: ResolvedConfig,
  userId: string,
  id: string,
): Promise<void> {
  if (config.session.strategy === "jwt") {
    if (config.session.revocation === "off") throw jwtSessionsUnsupported()
    const backend = revocationBackend(config)
    const mine = (await backend.listSessions(userId)).some((r) => r.sid === id)
    if (!mine) throw notFound()
    await backend.revokeSession(id, nowSeconds() + tokenLifetime(config))
    return
  }
  const adapter = requireMethods(config, DB_METHODS)
  if (!(await adapter.deleteSessionById(userId, id))) throw notFound()
}

/**
 * Ends every session of the user but the current one: a move of the account's state
 * (`sessions-ended`), which also voids every pending grant. Returns cookies to set (the current
 * session re-issued at the new stamp, so it survives the move).
 */
export async function revokeOtherDeviceSessions(keep: KeptSession & { userId: string }) {
  const { config } = keep.sctx
  if (config.session.strategy === "jwt") {
    if (config.session.revocation === "off") throw jwtSessionsUnsupported()
    if (!keep.token || typeof keep.token.sid !== "string") throw jwtSessionsUnsupported()
  } else {
    requireMethods(config, DB_METHODS)
  }
  return moveAccountState(config, keep.userId, "sessions-ended", keep)
}

export function notFound(): AccountItemNotFound {
  return new AccountItemNotFound("No such item in this account")
}
