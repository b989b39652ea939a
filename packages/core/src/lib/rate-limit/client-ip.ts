/**
 * The client IP the per-IP limit counts, from the request alone (`Auth()` sees no socket).
 *
 * The rightmost `X-Forwarded-For` entry is the one the nearest proxy appended: the client
 * controls the entries to its left, not that one. Without a proxy in front, a client can send
 * any value, which lets it dodge the per-IP limit (the per-address limit still holds) or
 * charge its attempts to another IP. Apps not behind a proxy, or with several proxy hops,
 * should pass `rateLimit.getClientIp`.
 *
 * Without either header, the address of the connection is used when the framework told it
 * (`setConnectionIp`: the Qwik binding passes `requestEvent.clientConn.ip`), so an app served
 * without a proxy still has a per-IP limit.
 */
export function defaultClientIp(request: Request): string | undefined {
  return headerClientIp(request) ?? connectionIps.get(request)
}

// Keyed by the Request object the framework hands to `Auth()`: nothing a client sends can set it.
const connectionIps = new WeakMap<Request, string>()

/**
 * Tells the core the address of the connection `request` came in on (from the framework's
 * socket, never from a header). Used by the default per-IP limits when no proxy header is there.
 */
export function setConnectionIp(request: Request, ip: string | null | undefined): void {
  if (typeof ip === "string" && ip !== "" && ip.length <= 64) connectionIps.set(request, ip)
}

function headerClientIp(request: Request): string | undefined {
  const forwarded = request.headers.get("x-forwarded-for")
  if (forwarded) {
    const hops = forwarded.split(",").map((hop) => hop.trim())
    const last = hops[hops.length - 1]
    if (last) return last
  }
  return request.headers.get("x-real-ip")?.trim() || undefined
}
