/**
 * Writing a new JWT session. Always a new token (no fixation). A database session's row is the
 * adapter's to write (`databaseSessionsOf(config).issue`).
 */

import { presentSessionCookieNames, writeSessionCookies } from "../cookies/session-store.js"
import { absoluteClockStart, sessionExpiry } from "../revocation/index.js"
import { nowSeconds } from "../runtime/time.js"
import type { JWT } from "../token/jwt.js"
import type { ResponseCookie } from "../types/cookies.js"
import type { SessionContext } from "./context.js"

/** Encrypt `token` into the session cookie(s), replacing whatever the request carried. */
export async function issueJwtSession(sctx: SessionContext, token: JWT): Promise<ResponseCookie[]> {
  const { config } = sctx
  const { name, options } = sctx.cookies.sessionToken
  const now = nowSeconds()
  const end = sessionExpiry(config, now, absoluteClockStart(token) ?? now)
  const value = await config.jwt.encode({
    token,
    secret: config.jwt.secret,
    maxAge: Math.min(config.jwt.maxAge, end - now),
    salt: name,
  })
  const expires = new Date(end * 1000)
  const present = presentSessionCookieNames(sctx.requestCookies, name)
  return writeSessionCookies(name, value, { ...options, expires }, present)
}
