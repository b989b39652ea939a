/**
 * Outcome → `Response`. Every cookie becomes its own `Set-Cookie` header; redirects are 302
 * (GET) or 303 (POST: the browser follows with GET), never 301; with `X-Auth-Return-Redirect`
 * a redirect is `200 { url }` JSON. Auth responses are never cacheable.
 */
import type { ResponseCookie } from "../../types.js"
import { serializeCookie } from "../cookies/serialize.js"
import { toLocation } from "../redirect.js"
import type { Outcome } from "./outcome.js"

export interface RespondInput {
  method: string
  origin: string
  returnRedirect: boolean
  cookies: readonly ResponseCookie[]
}

export function toResponse(outcome: Outcome, input: RespondInput): Response {
  const headers = new Headers({ "Cache-Control": "no-store" })
  for (const cookie of input.cookies) headers.append("Set-Cookie", serializeCookie(cookie))

  switch (outcome.kind) {
    case "redirect": {
      const url = toLocation(outcome.url, input.origin)
      if (input.returnRedirect) {
        headers.set("Content-Type", "application/json")
        return new Response(JSON.stringify({ url }), { status: 200, headers })
      }
      headers.set("Location", url)
      return new Response(null, { status: input.method === "POST" ? 303 : 302, headers })
    }
    case "json": {
      for (const [k, v] of Object.entries(outcome.headers ?? {})) headers.set(k, v)
      headers.set("Content-Type", "application/json")
      return new Response(JSON.stringify(outcome.body ?? null), {
        status: outcome.status ?? 200,
        headers,
      })
    }
    case "html":
      headers.set("Content-Type", "text/html; charset=utf-8")
      return new Response(outcome.html, { status: outcome.status, headers })
    case "empty":
      for (const [k, v] of Object.entries(outcome.headers ?? {})) headers.set(k, v)
      return new Response(null, { status: outcome.status, headers })
  }
}
