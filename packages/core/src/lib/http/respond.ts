/**
 * Outcome → `Response`. Every cookie becomes its own `Set-Cookie` header; redirects are 302
 * (GET) or 303 (POST: the browser follows with GET), never 301; with `X-Auth-Return-Redirect`
 * a redirect is `200 { url }` JSON. Auth responses are never cacheable.
 */

import { serializeCookie } from "../cookies/serialize.js"
import { toLocation } from "../redirect.js"
import type { ResponseCookie } from "../types/cookies.js"
import type { Outcome } from "./outcome.js"

export interface RespondInput {
  method: string
  origin: string
  returnRedirect: boolean
  cookies: readonly ResponseCookie[]
}

type HeaderPairs = [string, string][]

/**
 * Built-in pages: no Referer but the origin leaves them (a link page's URL carries the link's
 * token; not `no-referrer`, which makes browsers send `Origin: null` on the pages' own form
 * posts, and frameworks that check `Origin` before Latchkey, as Qwik 2 does, refuse those
 * with a 403), no other site may frame them (clickjacking a sign-in or sign-out button), and they
 * load nothing but their own inline style and the theme's images. No `form-action`: browsers
 * apply it to the redirect to an OAuth provider that follows a sign-in form.
 */
const PAGE_HEADERS: HeaderPairs = [
  ["Referrer-Policy", "strict-origin"],
  ["X-Frame-Options", "DENY"],
  ["X-Content-Type-Options", "nosniff"],
  ["Content-Security-Policy", pageCsp()],
]

/**
 * The pages' CSP. A page with our own inline script (the passkey form) allows exactly that
 * script by hash and lets it call this origin's auth endpoints (`connect-src 'self'`).
 */
function pageCsp(scriptHashes: readonly string[] = []): string {
  const scripts =
    scriptHashes.length === 0 ? "" : ` script-src ${scriptHashes.join(" ")}; connect-src 'self';`
  return `default-src 'none'; style-src 'unsafe-inline'; img-src * data:;${scripts} base-uri 'none'; frame-ancestors 'none'`
}

/** Replace or add a header in a pair list (Set-Cookie pairs are only ever appended). */
function set(headers: HeaderPairs, name: string, value: string): void {
  const lower = name.toLowerCase()
  const i = headers.findIndex(([n]) => n.toLowerCase() === lower)
  if (i === -1) headers.push([name, value])
  else headers[i] = [name, value]
}

export function toResponse(outcome: Outcome, input: RespondInput): Response {
  // A pair list rather than a Headers object: repeated Set-Cookie stays repeated, and a
  // Response built from plain pairs costs about a third less on every auth request.
  const headers: HeaderPairs = [["Cache-Control", "no-store"]]
  for (const cookie of input.cookies) headers.push(["Set-Cookie", serializeCookie(cookie)])

  switch (outcome.kind) {
    case "redirect": {
      for (const [k, v] of Object.entries(outcome.headers ?? {})) set(headers, k, v)
      const url = toLocation(outcome.url, input.origin)
      if (input.returnRedirect) {
        set(headers, "Content-Type", "application/json")
        return new Response(JSON.stringify({ url }), { status: 200, headers })
      }
      set(headers, "Location", url)
      return new Response(null, { status: input.method === "POST" ? 303 : 302, headers })
    }
    case "json": {
      for (const [k, v] of Object.entries(outcome.headers ?? {})) set(headers, k, v)
      set(headers, "Content-Type", "application/json")
      return new Response(JSON.stringify(outcome.body ?? null), {
        status: outcome.status ?? 200,
        headers,
      })
    }
    case "html":
      for (const [k, v] of Object.entries(outcome.headers ?? {})) set(headers, k, v)
      set(headers, "Content-Type", "text/html; charset=utf-8")
      for (const [k, v] of PAGE_HEADERS) set(headers, k, v)
      if (outcome.scriptHashes && outcome.scriptHashes.length > 0) {
        set(headers, "Content-Security-Policy", pageCsp(outcome.scriptHashes))
      }
      return new Response(outcome.html, { status: outcome.status, headers })
    case "empty":
      for (const [k, v] of Object.entries(outcome.headers ?? {})) set(headers, k, v)
      return new Response(null, { status: outcome.status, headers })
  }
}
