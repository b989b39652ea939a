/** Writing a new database session row at sign-in. Always a new token (no fixation). */

import {
  presentSessionCookieNames,
  writeSessionCookies,
} from "../../kernel/cookies/session-store.js"
import { accountStamp } from "../../kernel/revocation/stamp.js"
import { nowSeconds } from "../../kernel/runtime/time.js"
import type { SessionContext } from "../../kernel/session/context.js"
import type { DatabaseSessionFacts } from "../../kernel/session/database-sessions.js"
import { withTokenFacts } from "../../kernel/session/token-facts.js"
import type { AdapterSession } from "../../kernel/types/adapters.js"
import type { ResponseCookie } from "../../kernel/types/cookies.js"

/**
 * A new database session row for `user` with a fresh token. The request's previous session
 * row, if any, is deleted: the old cookie value stops working (session fixation, ASVS 7.2.4).
 *
 * An adapter with the account API stores the sign-in facts in the row's own columns; any other
 * (an Auth.js adapter) gets them, with the account's state stamp, in the token itself
 * (`token-facts.ts`), so its sessions can count as recent and can be ended by a claim or a reset.
 * `facts.authTime` carries a re-issued session's sign-in over (default: now, a new sign-in).
 */
export async function issueDatabaseSession(
  sctx: SessionContext,
  user: { id: string; proven: boolean },
  facts: DatabaseSessionFacts = {},
): Promise<{ cookies: ResponseCookie[]; sessionToken: string; expires: Date }> {
  const { config } = sctx
  const adapter = config.adapter!
  const { name, options } = sctx.cookies.sessionToken
  const previous = sctx.requestCookies[name]
  const now = nowSeconds()
  const authTime = facts.authTime ?? now
  // Only an adapter with the account API's session methods stores these fields and keeps the
  // bound; an Auth.js adapter (Prisma, Drizzle…) may refuse columns or arguments it does not
  // know, and keeps its rows until they expire or the user signs out, as in Auth.js.
  const latchkey = typeof adapter.listSessionsByUserId === "function"
  const sessionToken = latchkey
    ? config.session.generateSessionToken()
    : withTokenFacts(config.session.generateSessionToken(), {
        authTime,
        amr: facts.amr ?? [],
        stamp: await accountStamp(config, user.id),
        unproven: !user.proven,
      })
  const expires = new Date((now + config.session.maxAge) * 1000)
  const row: AdapterSession = { sessionToken, userId: user.id, expires }
  if (latchkey) {
    const at = new Date(now * 1000)
    Object.assign(row, {
      id: crypto.randomUUID(),
      createdAt: at,
      lastSeenAt: at,
      authTime: new Date(authTime * 1000),
      userAgent: facts.userAgent ?? null,
      amr: facts.amr ?? null,
    })
  }
  // Bounded when written: a script with one valid password must not grow the user's rows.
  const created = latchkey
    ? await adapter.createSession!(row, { maxPerUser: config.session.maxListedSessions })
    : await adapter.createSession!(row)
  if (previous && previous !== sessionToken) {
    try {
      await adapter.deleteSession!(previous)
    } catch {
      // Already gone (or never existed): nothing left to revoke.
    }
  }
  const present = presentSessionCookieNames(sctx.requestCookies, name)
  const cookies = writeSessionCookies(
    name,
    created.sessionToken,
    { ...options, expires: created.expires },
    present,
  )
  return { cookies, sessionToken: created.sessionToken, expires: created.expires }
}
