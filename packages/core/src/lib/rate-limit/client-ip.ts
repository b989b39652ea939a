/**
 * The client IP the per-IP limit counts, from the request alone (`Auth()` sees no socket).
 *
 * The rightmost `X-Forwarded-For` entry is the one the nearest proxy appended: the client
 * controls the entries to its left, not that one. Without a proxy in front, a client can send
 * any value, which lets it dodge the per-IP limit (the per-address limit still holds) or
 * charge its attempts to another IP. Apps not behind a proxy, or with several proxy hops,
 * should pass `rateLimit.getClientIp` (the Qwik binding can use `requestEvent.clientConn.ip`).
 */
export function defaultClientIp(request: Request): string | undefined {
  const forwarded = request.headers.get("x-forwarded-for")
  if (forwarded) {
    const hops = forwarded.split(",").map((hop) => hop.trim())
    const last = hops[hops.length - 1]
    if (last) return last
  }
  return request.headers.get("x-real-ip")?.trim() || undefined
}
