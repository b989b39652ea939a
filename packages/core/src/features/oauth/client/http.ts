/**
 * Which URLs the OAuth flow may talk to. Everything is `https:` except loopback hosts, where
 * `http:` is allowed so local providers (tests, dev IdPs) work: a token sent in clear text
 * to 127.0.0.1 never leaves the machine. Auth.js allows `http:` everywhere.
 */
import * as o from "oauth4webapi"
import { InvalidEndpoints } from "../../../kernel/errors/errors.js"
import { isLoopback } from "../../../kernel/urls/loopback.js"

/** `https:`, or `http:` on a loopback host; anything else is a configuration error. */
export function assertAllowedUrl(url: URL, what: string): void {
  if (url.protocol === "https:") return
  if (url.protocol === "http:" && isLoopback(url)) return
  throw new InvalidEndpoints(
    `${what} must be an https: URL (http: is only allowed for loopback hosts)`,
  )
}

/**
 * The oauth4webapi option that lets one request go over `http:`, given only for loopback
 * targets. oauth4webapi refuses every other `http:` request on its own.
 */
export function insecureFor(url: URL | string | undefined): {
  [o.allowInsecureRequests]?: boolean
} {
  if (url === undefined) return {}
  const u = typeof url === "string" ? new URL(url) : url
  return u.protocol === "http:" && isLoopback(u) ? { [o.allowInsecureRequests]: true } : {}
}

/** `fetch` for provider hooks (userinfo `request`): same URL rule, no redirects followed. */
export function guardedFetch(url: URL, init?: RequestInit): Promise<Response> {
  assertAllowedUrl(url, "OAuth request URL")
  return fetch(url, { redirect: "manual", ...init })
}
