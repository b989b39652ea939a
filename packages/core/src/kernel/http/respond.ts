/**
 * Outcome → `Response`. Every cookie becomes its own `Set-Cookie` header; redirects are 302
 * (GET) or 303 (POST: the browser follows with GET), never 301; with `X-Auth-Return-Redirect`
 * a redirect is `200 { url }` JSON. Auth responses are never cacheable.
 */

import { serializeCookie } from "../cookies/serialize.js"
import type { ResponseCookie } from "../types/cookies.js"
import { toLocation } from "../urls/redirect.js"
import type { Outcome } from "./outcome.js"

export interface RespondInput {
  method: string
  origin: string
  returnRedirect: boolean
  cookies: readonly ResponseCookie[]
}

/** Header name (lower case, as `Headers` keeps it) → value; Set-Cookie is kept apart. */
type HeaderRecord = Record<string, string>

/**
 * Built-in pages: no Referer but the origin leaves them (a link page's URL carries the link's
 * token; not `no-referrer`, which makes browsers send `Origin: null` on the pages' own form
 * posts, and frameworks that check `Origin` before Latchkey, as Qwik 2 does, refuse those
 * with a 403), no other site may frame them (clickjacking a sign-in or sign-out button), and they
 * load nothing but their own inline style and the theme's images. No `form-action`: browsers
 * apply it to the redirect to an OAuth provider that follows a sign-in form.
 */
const PAGE_HEADERS: Readonly<HeaderRecord> = {
  "referrer-policy": "strict-origin",
  "x-frame-options": "DENY",
  "x-content-type-options": "nosniff",
  "content-security-policy": pageCsp(),
}

/**
 * The pages' CSP. A page with our own inline script (the passkey form) allows exactly that
 * script by hash and lets it call this origin's auth endpoints (`connect-src 'self'`).
 */
function pageCsp(scriptHashes: readonly string[] = []): string {
  const scripts =
    scriptHashes.length === 0 ? "" : ` script-src ${scriptHashes.join(" ")}; connect-src 'self';`
  return `default-src 'none'; style-src 'unsafe-inline'; img-src * data:;${scripts} base-uri 'none'; frame-ancestors 'none'`
}

/** Replace or add headers; keys in lower case, so `Cache-Control` replaces `cache-control`. */
function assign(headers: HeaderRecord, extra: Readonly<Record<string, string>> | undefined): void {
  if (!extra) return
  for (const name in extra) headers[name.toLowerCase()] = extra[name] as string
}

/**
 * The `Response` init's headers. A plain record when no cookie is set (undici converts a
 * record with less work than a pair list, and far less than a `Headers` built by `.set`
 * calls); with cookies a pair list, so each `Set-Cookie` stays its own header. `Headers`
 * lower-cases names and sorts them when read, so both forms give the same response.
 */
function headersInit(
  headers: HeaderRecord,
  cookies: readonly ResponseCookie[],
): HeaderRecord | [string, string][] {
  if (cookies.length === 0) return headers
  const pairs = Object.entries(headers)
  for (const cookie of cookies) pairs.push(["set-cookie", serializeCookie(cookie)])
  return pairs
}

export function toResponse(outcome: Outcome, input: RespondInput): Response {
  const headers: HeaderRecord = { "cache-control": "no-store" }
  assign(headers, outcome.headers)
  const init = (status: number) => ({ status, headers: headersInit(headers, input.cookies) })

  switch (outcome.kind) {
    case "redirect": {
      const url = toLocation(outcome.url, input.origin)
      if (input.returnRedirect) {
        headers["content-type"] = "application/json"
        return new Response(JSON.stringify({ url }), init(200))
      }
      headers.location = url
      return new Response(null, init(input.method === "POST" ? 303 : 302))
    }
    case "json":
      headers["content-type"] = "application/json"
      return new Response(JSON.stringify(outcome.body ?? null), init(outcome.status ?? 200))
    case "html":
      headers["content-type"] = "text/html; charset=utf-8"
      Object.assign(headers, PAGE_HEADERS)
      if (outcome.scriptHashes && outcome.scriptHashes.length > 0) {
        headers["content-security-policy"] = pageCsp(outcome.scriptHashes)
      }
      return new Response(outcome.html, init(outcome.status))
    case "empty":
      return new Response(null, init(outcome.status))
  }
}
