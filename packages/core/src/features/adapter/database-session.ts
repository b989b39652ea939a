/**
 * Reading a database session: one `getSessionAndUser`; an expired row is deleted; the expiry
 * slides (`updateSession` + a refreshed cookie) at most once per `updateAge`, so a read inside
 * it writes nothing and sets no cookie. A missing row is an unreadable session: cookie cleared.
 */

import type { CallbacksOptions } from "../../kernel/config/auth-config.js"
import {
  clearSessionCookies,
  presentSessionCookieNames,
} from "../../kernel/cookies/session-store.js"
import { SessionTokenError } from "../../kernel/errors/errors.js"
import { emitEvent } from "../../kernel/events/emit.js"
import { accountStamp } from "../../kernel/revocation/stamp.js"
import type { SessionContext, SessionResult, SessionUpdate } from "../../kernel/session/context.js"
import { rememberRowRead } from "../../kernel/session/database-sessions.js"
import { markSession, userHasError } from "../../kernel/session/feature-hooks.js"
import { tokenFacts } from "../../kernel/session/token-facts.js"
import type { AdapterSession, AdapterUser } from "../../kernel/types/adapters.js"
import type { Session } from "../../kernel/types/records.js"

type SessionParams = Parameters<Required<CallbacksOptions>["session"]>[0]

/**
 * A session whose token carries the account's stamp (an adapter that cannot delete a user's
 * rows: `token-facts.ts`) ended when the stamp moved past it. Checked on every read while the
 * account was unproven at sign-in (a claim must end it at once) or `revocation` is `strict`,
 * else when the session slides (`updateAge`), as a JWT session with `revocation: "reissue"`.
 */
async function endedByStamp(
  sctx: SessionContext,
  sessionToken: string,
  userId: string,
  sliding: boolean,
): Promise<boolean> {
  const carried = tokenFacts(sessionToken)
  const { revocation } = sctx.config.session
  if (!carried || revocation === "off") return false
  if (!(sliding || carried.unproven || revocation === "strict")) return false
  return carried.stamp < (await accountStamp(sctx.config, userId))
}

export async function readDatabaseSession(
  sctx: SessionContext,
  update: SessionUpdate | undefined,
): Promise<SessionResult> {
  const { config, logger, requestCookies } = sctx
  const { name, options } = sctx.cookies.sessionToken
  const sessionToken = requestCookies[name]
  const present = presentSessionCookieNames(requestCookies, name)
  if (!sessionToken) {
    // Only chunk-named cookies: not ours for a database session (e.g. a JWT cookie left over
    // from a strategy switch). Clear them.
    logger.warn("session-unreadable")
    return { session: null, cookies: clearSessionCookies(options, present) }
  }
  const adapter = config.adapter!
  try {
    const found = await adapter.getSessionAndUser!(sessionToken)
    const nowMs = Date.now()
    if (!found || found.session.expires.valueOf() <= nowMs) {
      if (found) await adapter.deleteSession!(sessionToken)
      // The row ended (signed out on another device, every device, or it expired): a user
      // event, not a cookie nobody can read.
      logger.event("session-revoked", "(reason: its database row is gone or expired)")
      return { session: null, cookies: clearSessionCookies(options, present) }
    }
    const { maxAge, updateAge } = config.session
    let row: AdapterSession = found.session
    const cookies: SessionResult["cookies"] = []
    const dueAt = row.expires.valueOf() - maxAge * 1000 + updateAge * 1000
    const due = updateAge === 0 || dueAt <= nowMs
    if (await endedByStamp(sctx, sessionToken, found.user.id, due)) {
      await adapter.deleteSession!(sessionToken)
      logger.event("session-revoked", "(reason: the account's state moved)")
      return { session: null, cookies: clearSessionCookies(options, present) }
    }
    if (due) {
      const expires = new Date(Math.floor(nowMs / 1000) * 1000 + maxAge * 1000)
      // The account API's adapters also keep when the session was last seen (display only).
      const lastSeenAt = adapter.listSessionsByUserId ? { lastSeenAt: new Date(nowMs) } : {}
      await adapter.updateSession!({ sessionToken, expires, ...lastSeenAt })
      row = { ...row, expires, ...lastSeenAt }
      cookies.push({ name, value: sessionToken, options: { ...options, expires } })
    }
    const user: AdapterUser = found.user
    // The row without its token: whatever the callback returns is sent to the page, and the
    // token must stay in its HttpOnly cookie (Auth.js passes it on).
    const { sessionToken: _token, ...visible } = row
    const session = await config.callbacks.session({
      session: { ...visible, user },
      user,
      newSession: update?.data,
      ...(update ? { trigger: "update" } : {}),
    } as unknown as SessionParams)
    if (session && (await userHasError(config, user.id))) {
      markSession(session as Session)
    }
    await emitEvent(config.events, logger, "session", { session: session as Session })
    if (session) rememberRowRead(sctx, { session: row, user })
    return { session: session as Session, cookies }
  } catch (cause) {
    // The database may be down: keep the cookie so the user is signed in again once it is back.
    logger.error(new SessionTokenError("The database session could not be read", { cause }))
    return { session: null, cookies: [] }
  }
}
