/**
 * The app's origin for this request, decided in one place:
 *
 * 1. `url` (AUTH_URL) when configured: the Host header is then irrelevant;
 * 2. with `trustHost`, `X-Forwarded-Host` / `X-Forwarded-Proto` (first value each) when they
 *    parse, else the request URL (which the server built from Host);
 * 3. a request made straight to a loopback host (`localhost`, `127.x.x.x`, `[::1]`, no proxy
 *    header): `npm run dev`, `npm run preview`, `wrangler pages dev` sign in on their own port
 *    with nothing configured. Host poisoning needs a host the attacker serves; a link to the
 *    reader's own machine is not one. Nothing in a file has to say "trust the host", so no
 *    `.env` that a production runtime also reads (Bun loads it) switches the check off;
 * 4. otherwise nothing: the Host header could be anyone's → `UntrustedHost`.
 */
import { UntrustedHost } from "../errors/errors.js"
import { isLoopbackHost } from "./loopback.js"

export interface OriginInput {
  url: URL | undefined
  trustHost: boolean
}

export type OriginResult =
  | { origin: string; protocol: "http:" | "https:" }
  | { error: UntrustedHost }

export function resolveOrigin(
  request: Request,
  config: OriginInput,
  requestUrl: URL = new URL(request.url),
): OriginResult {
  if (config.url) return fromUrl(config.url)
  if (!config.trustHost) {
    if (isDirectLoopback(request, requestUrl)) return fromUrl(requestUrl)
    return {
      error: new UntrustedHost(
        "The request's host is not trusted. Set AUTH_URL to the app's public URL, or set " +
          "trustHost: true (AUTH_TRUST_HOST=true) when a proxy you control sets Host / X-Forwarded-Host.",
      ),
    }
  }
  return fromUrl(requestedUrl(request, requestUrl))
}

/**
 * The protocol of the origin `resolveOrigin` decides, without building URLs: all a session read
 * needs (it picks the cookie names). With an untrusted host, the request URL's.
 */
export function originProtocol(request: Request, config: OriginInput): "http:" | "https:" {
  if (config.url) return config.url.protocol === "https:" ? "https:" : "http:"
  if (config.trustHost) {
    const forwarded = firstValue(request.headers.get("x-forwarded-proto"))?.toLowerCase()
    if (forwarded === "http" || forwarded === "https") return `${forwarded}:`
  }
  return request.url.startsWith("https:") ? "https:" : "http:"
}

/**
 * The origin the request was made to: `X-Forwarded-Host` / `X-Forwarded-Proto` (first value
 * each) when they parse, else the request URL (which the server built from Host).
 */
function requestedUrl(request: Request, requestUrl: URL): URL {
  const { headers } = request
  const forwardedHost = firstValue(headers.get("x-forwarded-host"))
  const forwardedProto = firstValue(headers.get("x-forwarded-proto"))?.toLowerCase()
  // Nothing forwarded: the request URL is the answer (its origin is the one a URL rebuilt from
  // its protocol and host would have), so no second URL is parsed on every request.
  if (forwardedHost === undefined && forwardedProto === undefined) return requestUrl
  const protocol =
    forwardedProto === "http" || forwardedProto === "https"
      ? `${forwardedProto}:`
      : requestUrl.protocol
  const host = forwardedHost && isHost(forwardedHost) ? forwardedHost : requestUrl.host
  const candidate = `${protocol}//${host}`
  return URL.canParse(candidate) ? new URL(candidate) : requestUrl
}

/** A request that reached the app on another origin than `AUTH_URL`'s. */
export interface HostMismatch {
  /** Where the request went (from the Host / X-Forwarded-* headers: not to be trusted). */
  requested: string
  /** `AUTH_URL`'s origin: where cookies and redirects go. */
  configured: string
}

/**
 * With `AUTH_URL` set, every cookie and redirect uses its origin. A browser on another host
 * (`127.0.0.1` for `localhost`, the bare domain for `www.`) gets its sign-in cookie on one host
 * and is sent to the other, where it looks signed out: worth saying so.
 */
export function hostMismatch(
  request: Request,
  config: OriginInput,
  requestUrl: URL = new URL(request.url),
): HostMismatch | undefined {
  if (!config.url) return undefined
  const requested = requestedUrl(request, requestUrl).origin
  const configured = config.url.origin
  return requested === configured ? undefined : { requested, configured }
}

function fromUrl(url: URL): { origin: string; protocol: "http:" | "https:" } {
  return { origin: url.origin, protocol: url.protocol === "https:" ? "https:" : "http:" }
}

/**
 * Made to a loopback host with no proxy's header: a proxy in front (which sends one of these)
 * may have been reached on a public name, and what it forwards is not the browser's address.
 */
function isDirectLoopback(request: Request, requestUrl: URL): boolean {
  const { headers } = request
  if (headers.has("x-forwarded-host") || headers.has("x-forwarded-for") || headers.has("forwarded"))
    return false
  return isLoopbackHost(requestUrl.hostname)
}

function firstValue(header: string | null): string | undefined {
  const value = header?.split(",")[0]?.trim()
  return value || undefined
}

/** A bare `host[:port]`: no userinfo, path, query or whitespace to smuggle into the origin. */
function isHost(value: string): boolean {
  if (!/^[A-Za-z0-9.\-[\]:]+$/.test(value)) return false
  return URL.canParse(`http://${value}`)
}
