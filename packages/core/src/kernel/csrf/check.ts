/**
 * Is this state-changing POST from our own pages? Checked in order (OWASP CSRF cheat sheet):
 *
 * 1. `skipCSRFCheck` configured → yes (the framework protects these routes itself).
 * 2. An `Origin` header → yes only if it is the app's origin exactly (and `Sec-Fetch-Site`, if
 *    sent, says `same-origin`). `same-site` is not enough: a sibling subdomain is same-site.
 * 3. No `Origin` (or `Origin: null`, which a page with `Referrer-Policy: no-referrer` sends
 *    even to itself) but `Sec-Fetch-Site` → yes only for
 *    `same-origin` or `none` (user-initiated). A sandboxed frame's `null` comes with
 *    `Sec-Fetch-Site: cross-site`.
 * 4. Neither header: not a browser form or fetch (browsers send `Origin` on every POST), so the
 *    signed double-submit token decides: a body `csrfToken` matching a CSRF cookie whose HMAC
 *    verifies for this request's session.
 * Otherwise no.
 *
 * The OAuth callback is not checked here: with `response_mode=form_post` (Apple) it is a
 * cross-site POST by design, and its state check (sealed, single-use, bound to the session that
 * started the flow) is what protects it.
 */
import type { RequestContext } from "../http/context.js"
import { sessionIdentity } from "../session/binding.js"
import { readCsrfCookie, tokensMatch } from "./double-submit.js"

export type CsrfVerdict =
  | { ok: true; via: "skip" | "fetch-metadata" | "origin" | "token" }
  | { ok: false; reason: "cross-origin" | "cross-site" | "missing-token" | "invalid-token" }

export async function checkCsrf(ctx: RequestContext): Promise<CsrfVerdict> {
  if (ctx.config.skipCSRFCheck) return { ok: true, via: "skip" }
  const site = ctx.request.headers.get("sec-fetch-site")?.toLowerCase()
  const origin = ctx.request.headers.get("origin")
  if (origin !== null && origin !== "null") {
    const sameOrigin = origin === ctx.origin && (site === undefined || site === "same-origin")
    return sameOrigin ? { ok: true, via: "origin" } : { ok: false, reason: "cross-origin" }
  }
  if (site !== undefined) {
    return site === "same-origin" || site === "none"
      ? { ok: true, via: "fetch-metadata" }
      : { ok: false, reason: "cross-site" }
  }

  const submitted = ctx.parsed.body.csrfToken
  if (submitted === undefined || submitted === "") return { ok: false, reason: "missing-token" }
  const cookieToken = await readCsrfCookie(
    ctx.parsed.cookies[ctx.cookies.csrfToken.name],
    ctx.config.secret,
    await sessionIdentity(ctx),
  )
  if (cookieToken !== null && tokensMatch(submitted, cookieToken)) return { ok: true, via: "token" }
  return { ok: false, reason: "invalid-token" }
}
