/**
 * The signed-in user behind a request, with what the account API and `requireRecentAuth`
 * need beyond `getSession`: the user id, the session's public id (never its token) and the
 * sign-in facts. The session is read first the ordinary way (revocation, `absoluteMaxAge`,
 * expiry and callbacks all apply), then its raw facts are taken from the token or the row.
 */
import type { AdapterUser } from "../../adapters.js"
import type { ResponseCookie } from "../../types.js"
import type { SessionContext } from "../session/context.js"
import { decodeSessionCookie } from "../session/jwt-session.js"
import { readSession } from "../session/read.js"
import { databaseSessionFacts, type RecentAuthFacts } from "./recent-auth.js"

export interface AccountUser {
  id: string
  name: string | null
  email: string | null
  image: string | null
}

export type CurrentSession =
  | { signedIn: false; cookies: ResponseCookie[] }
  | {
      signedIn: true
      userId: string
      user: AccountUser
      /** The session's public id: the `sid` claim, or the database row's `id`. */
      sessionId: string | undefined
      facts: RecentAuthFacts
      cookies: ResponseCookie[]
    }

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
      sessionId: typeof token.sid === "string" ? token.sid : undefined,
      facts: {
        authTime: typeof token.auth_time === "number" ? token.auth_time : undefined,
        amr: Array.isArray(token.amr) ? token.amr.filter((v) => typeof v === "string") : undefined,
      },
      cookies,
    }
  }
  const sessionToken = sctx.requestCookies[sctx.cookies.sessionToken.name]
  const found = sessionToken ? await config.adapter!.getSessionAndUser!(sessionToken) : null
  if (!found) return { signedIn: false, cookies }
  return {
    signedIn: true,
    userId: found.user.id,
    user: accountUser(found.user),
    sessionId: typeof found.session.id === "string" ? found.session.id : undefined,
    facts: databaseSessionFacts(found.session),
    cookies,
  }
}
