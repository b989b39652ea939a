/**
 * The signed-in user behind a request: THE reader for everything that acts for that user (the
 * account API, two-factor settings, passkey registration, linking a provider account, the
 * Qwik actions through them, `requireRecentAuth`). Nothing else decodes the session cookie to
 * learn who is signed in.
 *
 * The session is read first the ordinary way (`readSession`: revocation, the user's session
 * version, `absoluteMaxAge`, expiry and callbacks all apply), then its raw facts (user id,
 * the session's public id, never its token, and the sign-in facts) are taken from the token or
 * the row. A JWT session is also checked for revocation when `session.revocation: "reissue"`
 * would have let an ordinary read skip it: acting for the user is never done by a session the
 * user ended.
 */

import type { ResponseCookie } from "../config/auth-config.js"
import { clearSessionCookies, presentSessionCookieNames } from "../cookies/session-store.js"
import type { KeptSession } from "../grants/account-state.js"
import type { RequestContext } from "../http/context.js"
import { checkRevocation } from "../revocation/index.js"
import type { SessionContext } from "../session/context.js"
import { rowReadWith } from "../session/database-sessions.js"
import { sessionContext } from "../session/from-request.js"
import { decodeSessionCookie } from "../session/jwt-session.js"
import { readSession } from "../session/read.js"
import type { JWT } from "../token/jwt.js"
import type { AdapterSession, AdapterUser } from "../types/adapters.js"
import { isEmailProven } from "./email-ownership.js"
import { databaseSessionFacts, type RecentAuthFacts } from "./recent-auth.js"

export interface AccountUser {
  id: string
  name: string | null
  email: string | null
  image: string | null
}

export type SignedInSession = {
  signedIn: true
  userId: string
  user: AccountUser
  /** The user's row, when the adapter has it. */
  stored: AdapterUser | null
  /** The session's public id: the `sid` claim, or the database row's `id`. */
  sessionId: string | undefined
  /** The decoded token of a JWT session (`null` for a database session). */
  token: JWT | null
  /** The row of a database session (`null` for a JWT session). */
  row: AdapterSession | null
  facts: RecentAuthFacts
  cookies: ResponseCookie[]
}

export type CurrentSession = { signedIn: false; cookies: ResponseCookie[] } | SignedInSession

const orNull = (value: unknown): string | null => (typeof value === "string" ? value : null)

function accountUser(user: Partial<AdapterUser> & { id: string }): AccountUser {
  return {
    id: user.id,
    name: orNull(user.name),
    email: orNull(user.email),
    image: orNull(user.image),
  }
}

export async function currentSession(sctx: SessionContext): Promise<CurrentSession> {
  const { session, cookies } = await readSession(sctx)
  if (!session) return { signedIn: false, cookies }
  const { config } = sctx
  if (config.session.strategy === "jwt") {
    const token = await decodeSessionCookie(sctx)
    if (!token || typeof token.sub !== "string") return { signedIn: false, cookies }
    const ended = await endedSinceRead(sctx, token)
    if (ended) return ended
    const stored = config.adapter?.getUser ? await config.adapter.getUser(token.sub) : null
    return {
      signedIn: true,
      userId: token.sub,
      user: stored
        ? accountUser(stored)
        : accountUser({
            id: token.sub,
            name: token.name ?? undefined,
            email: token.email ?? undefined,
            image: token.picture ?? undefined,
          }),
      stored,
      sessionId: typeof token.sid === "string" ? token.sid : undefined,
      token,
      row: null,
      facts: {
        authTime: typeof token.auth_time === "number" ? token.auth_time : undefined,
        amr: Array.isArray(token.amr) ? token.amr.filter((v) => typeof v === "string") : undefined,
      },
      cookies,
    }
  }
  const sessionToken = sctx.requestCookies[sctx.cookies.sessionToken.name]
  // The row the read just found; read again only if the read kept none (it always does).
  const found =
    rowReadWith(sctx) ??
    (sessionToken ? await config.adapter!.getSessionAndUser!(sessionToken) : null)
  if (!found || found.session.expires.valueOf() <= Date.now()) return { signedIn: false, cookies }
  return {
    signedIn: true,
    userId: found.user.id,
    user: accountUser(found.user),
    stored: found.user,
    sessionId: typeof found.session.id === "string" ? found.session.id : undefined,
    token: null,
    row: found.session,
    facts: databaseSessionFacts(found.session),
    cookies,
  }
}

/**
 * With `revocation: "reissue"` an ordinary read inside `updateAge` does not ask whether the
 * session was ended; acting for the user does (one store or database read). `strict` already
 * asked, `off` keeps no state. A backend that cannot answer is handled as a read handles it
 * (`revocationFailure`: signed out by default, the cookie kept for when it is back).
 */
async function endedSinceRead(
  sctx: SessionContext,
  token: JWT,
): Promise<CurrentSession | undefined> {
  const { config, logger } = sctx
  if (config.session.revocation !== "reissue") return undefined
  const check = await checkRevocation(config, token)
  if (check.outcome === "valid") return undefined
  if (check.outcome === "unavailable") {
    logger.error(check.error)
    return config.session.revocationFailure === "open"
      ? undefined
      : { signedIn: false, cookies: [] }
  }
  const why = check.reason === "user-version" ? "signed out everywhere" : "this session signed out"
  logger.event("session-revoked", `(reason: ${why})`)
  const { name, options } = sctx.cookies.sessionToken
  return {
    signedIn: false,
    cookies: clearSessionCookies(options, presentSessionCookieNames(sctx.requestCookies, name)),
  }
}

/** The signed-in session as the one a move of the account's state keeps (re-issued at the new stamp). */
export function keptSession(sctx: SessionContext, current: SignedInSession): KeptSession {
  return {
    sctx,
    sessionId: current.sessionId,
    token: current.token,
    facts: current.facts,
    proven: current.stored ? isEmailProven(current.stored) : current.token?.unproven !== true,
  }
}

const perRequest = new WeakMap<RequestContext, Promise<CurrentSession>>()

/**
 * `currentSession` of an auth request, read once per request (the passkey callback and the
 * account linking it leads to ask the same question). The caller adds `cookies` to the
 * response when it answers for the session (no new session issued).
 */
export function currentSessionOf(ctx: RequestContext): Promise<CurrentSession> {
  let read = perRequest.get(ctx)
  if (!read) {
    read = currentSession(sessionContext(ctx))
    perRequest.set(ctx, read)
  }
  return read
}
