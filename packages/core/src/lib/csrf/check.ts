/**
 * Is this state-changing POST from our own pages? Checked in order (OWASP CSRF cheat sheet):
 *
 * 1. `skipCSRFCheck` configured → yes (the framework protects these routes itself).
 * 2. `Sec-Fetch-Site: same-origin` or `none` → yes; `cross-site` → no, whatever else is sent.
 * 3. `Origin` equal to the app's origin → yes.
 * 4. The signed double-submit token: a body `csrfToken` matching a CSRF cookie whose HMAC
 *    verifies → yes (non-browser clients, and browsers that send neither header).
 * Otherwise no.
 */
import type { RequestContext } from "../context.js"
import { readCsrfCookie, tokensMatch } from "./double-submit.js"

export type CsrfVerdict =
  | { ok: true; via: "skip" | "fetch-metadata" | "origin" | "token" }
  | { ok: false; reason: "cross-site" | "missing-token" | "invalid-token" }

export async function checkCsrf(ctx: RequestContext): Promise<CsrfVerdict> {
  if (ctx.config.skipCSRFCheck) return { ok: true, via: "skip" }
  const site = ctx.request.headers.get("sec-fetch-site")?.toLowerCase()
  if (site === "same-origin" || site === "none") return { ok: true, via: "fetch-metadata" }
  if (site === "cross-site") return { ok: false, reason: "cross-site" }

  const origin = ctx.request.headers.get("origin")
  if (origin !== null && origin === ctx.origin) return { ok: true, via: "origin" }

  const submitted = ctx.parsed.body.csrfToken
  if (submitted === undefined || submitted === "") return { ok: false, reason: "missing-token" }
  const cookieToken = await readCsrfCookie(
    ctx.parsed.cookies[ctx.cookies.csrfToken.name],
    ctx.config.secret,
  )
  if (cookieToken !== null && tokensMatch(submitted, cookieToken)) return { ok: true, via: "token" }
  return { ok: false, reason: "invalid-token" }
}
