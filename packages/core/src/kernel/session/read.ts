/** One entry point for reading the session, used by `getSession` and `GET/POST /session`. */

import { sessionCookieCandidates } from "../token/read-request.js"
import type { SessionContext, SessionResult, SessionUpdate } from "./context.js"
import { databaseSessionsOf } from "./database-sessions.js"
import { readJwtSession } from "./jwt-session.js"

export async function readSession(
  sctx: SessionContext,
  update?: SessionUpdate,
): Promise<SessionResult> {
  // No session cookie at all: answer before any crypto or database work.
  const candidates = sessionCookieCandidates(sctx.requestCookies, sctx.cookies.sessionToken.name)
  if (candidates.length === 0) return { session: null, cookies: [] }
  return sctx.config.session.strategy === "jwt"
    ? readJwtSession(sctx, update, candidates)
    : databaseSessionsOf(sctx.config).read(sctx, update)
}
