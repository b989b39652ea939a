/**
 * What identifies the browser session of a request, so that something handed to that browser
 * (the CSRF double-submit pair, an OAuth flow's check cookies) works only in the session it was
 * made for. A cookie planted by a sibling subdomain, or copied from the attacker's own browser,
 * was made for another session (or none) and no longer matches.
 *
 * - JWT sessions: the `sid` claim, stable across re-issues (a token from before `sid` existed,
 *   Auth.js's: its `sub`).
 * - Database sessions: the session token in the cookie.
 * - Signed out, or a cookie that does not decode: `""`.
 */

import { sha256Base64Url } from "../crypto/digest.js"
import type { RequestContext } from "../http/context.js"
import { sessionContext } from "./from-request.js"
import { decodeSessionCookie } from "./jwt-session.js"

/** The raw session identity (secret for database sessions: use it only inside a MAC or hash). */
export async function sessionIdentity(ctx: RequestContext): Promise<string> {
  if (ctx.config.session.strategy === "database") {
    return ctx.parsed.cookies[ctx.cookies.sessionToken.name] ?? ""
  }
  const token = await decodeSessionCookie(sessionContext(ctx))
  if (typeof token?.sid === "string") return `sid:${token.sid}`
  return typeof token?.sub === "string" ? `sub:${token.sub}` : ""
}

/** A SHA-256 of the identity, to carry in a sealed cookie; `""` when signed out. */
export async function sessionBinding(ctx: RequestContext): Promise<string> {
  const identity = await sessionIdentity(ctx)
  return identity === "" ? "" : sha256Base64Url(identity)
}
