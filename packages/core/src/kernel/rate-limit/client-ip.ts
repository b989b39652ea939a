/**
 * The client IP the per-IP limits count, from the request alone (`Auth()` sees no socket), and
 * the store key it becomes.
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
 *
 * Whatever the source, nothing a client sends becomes a key as it is (issue 42): the text is
 * bounded, parsed as one IPv4 or IPv6 address (with an optional port, the way some proxies
 * write it) and written back in one canonical form; anything else counts as no address. An
 * IPv6 address is counted with its whole /64 (`ipv6Prefix`): one subscriber gets a /64 or more
 * from its provider (RFC 6177), so counting single addresses would hand it 2^64 fresh keys.
 * An IPv4-mapped IPv6 address (`::ffff:192.0.2.1`, from a dual-stack socket) is its IPv4
 * address: otherwise every IPv4 client would share the one /64 of `::ffff:0:0`.
 */
import { type AuthError, InvalidParameter } from "../errors/errors.js"
import type { Logger } from "../logger/logger.js"

/** IPv6 clients are counted per /64 unless the limit says otherwise. */
export const DEFAULT_IPV6_PREFIX = 64
/** Coarsest grouping: a /32 is a whole provider's allocation. */
export const MIN_IPV6_PREFIX = 32
/** Finest grouping: a /64 is the smallest block one subscriber is given. */
export const MAX_IPV6_PREFIX = 64

/** Longest text read as one address: `[` + a 45-character IPv6 + `]:` + a 5-digit port. */
const MAX_ADDRESS_CHARS = 53
/** Longest value looked at, spaces around the address included: anything longer is not one. */
const MAX_VALUE_CHARS = 64

/** How a limit reads the client IP (the shared part of the sign-in limits' options). */
export interface ClientIpOptions {
  getClientIp?: (request: Request) => string | undefined
  ipv6Prefix?: number
}

/**
 * The default reading of a request's client IP, as a key: the rightmost `X-Forwarded-For`
 * entry, else `X-Real-IP`, else the connection's address (`setConnectionIp`), the first of them
 * that is an IP address. IPv6 is grouped by /64.
 */
export function defaultClientIp(request: Request): string | undefined {
  const forwarded = request.headers.get("x-forwarded-for")
  return (
    (forwarded === null ? undefined : clientIpKey(lastEntry(forwarded))) ??
    clientIpKey(request.headers.get("x-real-ip")) ??
    clientIpKey(connectionIps.get(request))
  )
}

/**
 * The per-IP key of `request` under a limit's options: its `getClientIp` (else the default
 * reading), parsed and grouped by its `ipv6Prefix`. A `getClientIp` answer that is not an IP
 * address counts as none, and is logged once (code `client-ip-unreadable`).
 */
export function requestClientIp(
  request: Request,
  options: ClientIpOptions | undefined,
  logger?: Pick<Logger, "warn">,
): string | undefined {
  const custom = options?.getClientIp
  if (!custom) return clientIpKey(defaultClientIp(request), options?.ipv6Prefix)
  const value = custom(request)
  const key = clientIpKey(value, options?.ipv6Prefix)
  if (key === undefined && value !== undefined && value !== "") {
    logger?.warn("client-ip-unreadable", "rateLimit.getClientIp returned something else")
  }
  return key
}

// Keyed by the Request object the framework hands to `Auth()`: nothing a client sends can set it.
const connectionIps = new WeakMap<Request, string>()

/**
 * Tells the core the address of the connection `request` came in on (from the framework's
 * socket, never from a header). Used by the default per-IP limits when no proxy header is there.
 */
export function setConnectionIp(request: Request, ip: string | null | undefined): void {
  if (typeof ip === "string" && ip !== "" && ip.length <= MAX_VALUE_CHARS) {
    connectionIps.set(request, ip)
  }
}

/** The text after the last comma (the entry the nearest proxy appended), without splitting it all. */
function lastEntry(header: string): string {
  return header.slice(header.lastIndexOf(",") + 1)
}

/**
 * The store key of one client address: `203.0.113.7` for IPv4, `2001:db8:1:2::/64` for IPv6
 * (its first `ipv6Prefix` bits), or `undefined` when `value` is not one address. Accepts what
 * proxies write (`198.51.100.7:5123`, `[2001:db8::1]:443`) and its own keys back (a key is
 * never split finer than it was made).
 */
export function clientIpKey(
  value: unknown,
  ipv6Prefix: number = DEFAULT_IPV6_PREFIX,
): string | undefined {
  if (typeof value !== "string" || value.length > MAX_VALUE_CHARS) return undefined
  const text = value.trim()
  if (text === "" || text.length > MAX_ADDRESS_CHARS) return undefined
  const v4 = /^(\d{1,3}(?:\.\d{1,3}){3})(?::\d{1,5})?$/.exec(text)
  if (v4) return ipv4(v4[1]!)
  const v6 =
    /^\[([0-9A-Fa-f:.]{2,45})\](?::\d{1,5})?$/.exec(text) ??
    /^([0-9A-Fa-f:.]{2,45})(?:\/(\d{1,3}))?$/.exec(text)
  if (!v6) return undefined
  const groups = ipv6Groups(v6[1]!)
  if (!groups) return undefined
  const mapped = mappedIpv4(groups)
  if (mapped) return mapped
  const made = v6[2] === undefined ? 128 : Number(v6[2])
  if (made > 128) return undefined
  return ipv6Network(groups, Math.min(made, checkedPrefix(ipv6Prefix)))
}

/** A dotted quad with each part 0–255 and no leading zero (`010` might be read as octal). */
function ipv4(text: string): string | undefined {
  const parts = text.split(".")
  const valid = parts.every((p) => (p === "0" || !p.startsWith("0")) && Number(p) <= 255)
  return valid ? text : undefined
}

/**
 * The eight 16-bit groups of an IPv6 address, read by the platform's URL parser (the WHATWG
 * host parser: `::`, embedded IPv4, no zone), or `null`. The caller has already kept the text
 * to hex digits, colons and dots, so the parser's own clean-up (it drops tabs and newlines)
 * cannot widen what is accepted.
 */
function ipv6Groups(text: string): number[] | null {
  if (!text.includes(":")) return null
  let host: string
  try {
    host = new URL(`http://[${text}]/`).hostname
  } catch {
    return null
  }
  // The serialiser writes lower-case hex, at most one `::`, never dotted IPv4.
  const [head = "", tail] = host.slice(1, -1).split("::")
  const left = head === "" ? [] : head.split(":")
  const right = tail === undefined || tail === "" ? [] : tail.split(":")
  const zeros = tail === undefined ? [] : Array(8 - left.length - right.length).fill("0")
  const groups = [...left, ...zeros, ...right].map((g) => Number.parseInt(g, 16))
  return groups.length === 8 && groups.every((g) => g >= 0 && g <= 0xffff) ? groups : null
}

/** `::ffff:a.b.c.d` as `a.b.c.d`, else `undefined`. */
function mappedIpv4(groups: readonly number[]): string | undefined {
  if (groups.slice(0, 5).some((g) => g !== 0) || groups[5] !== 0xffff) return undefined
  const [hi = 0, lo = 0] = groups.slice(6)
  return `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`
}

/**
 * The first `prefix` (at most 64) bits of the address as `network::/prefix`, in RFC 5952's
 * form: lower-case hex without leading zeros, the trailing zero groups (at least four, so the
 * longest run) written `::`.
 */
function ipv6Network(groups: readonly number[], prefix: number): string {
  const network = groups.slice(0, Math.ceil(prefix / 16)).map((group, i) => {
    const bits = Math.min(16, prefix - i * 16)
    return group & ((0xffff << (16 - bits)) & 0xffff)
  })
  while (network.at(-1) === 0) network.pop()
  return `${network.map((g) => g.toString(16)).join(":")}::/${prefix}`
}

function checkedPrefix(prefix: number): number {
  return Number.isInteger(prefix) && prefix >= MIN_IPV6_PREFIX && prefix <= MAX_IPV6_PREFIX
    ? prefix
    : DEFAULT_IPV6_PREFIX
}

/** The configuration problem of a limit's `ipv6Prefix`, if any. */
export function checkIpv6Prefix(
  where: string,
  options: { ipv6Prefix?: unknown } | false | undefined,
  problems: AuthError[],
): void {
  const prefix = options ? options.ipv6Prefix : undefined
  if (prefix === undefined) return
  if (
    typeof prefix !== "number" ||
    !Number.isInteger(prefix) ||
    prefix < MIN_IPV6_PREFIX ||
    prefix > MAX_IPV6_PREFIX
  ) {
    problems.push(
      new InvalidParameter(
        `${where}.ipv6Prefix`,
        `must be a whole number from ${MIN_IPV6_PREFIX} to ${MAX_IPV6_PREFIX}: IPv6 clients are counted per block of that size (a /64 is the smallest one subscriber gets)`,
      ),
    )
  }
}
