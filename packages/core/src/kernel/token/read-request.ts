/**
 * Finding the session token in a request: the session cookie (whole, or split into
 * `<name>.0`, `<name>.1`, …) and then `Authorization: Bearer`. Shared by `getToken` and the
 * core's session store, so both read cookies the same way.
 */
import { parseCookieHeader } from "./cookie-header.js"

/** A `Request`, or anything with headers (Node's `IncomingMessage`, a plain record). */
export type TokenRequest =
  | Request
  | { headers: Headers | Record<string, string | string[] | undefined> }

export interface FoundToken {
  source: "cookie" | "bearer"
  /** Values to try in order: the whole cookie, then the reassembled chunks. */
  candidates: string[]
}

/** A header of a `Request`/`Headers` or of a plain record, case-insensitively. */
export function readHeader(req: TokenRequest, name: string): string | undefined {
  const headers = req.headers as unknown
  if (typeof (headers as Headers)?.get === "function") {
    return (headers as Headers).get(name) ?? undefined
  }
  if (typeof headers !== "object" || headers === null) return undefined
  const lower = name.toLowerCase()
  for (const [key, value] of Object.entries(headers as Record<string, unknown>)) {
    if (key.toLowerCase() !== lower) continue
    if (typeof value === "string") return value
    if (Array.isArray(value)) return value.filter((v) => typeof v === "string").join("; ")
  }
  return undefined
}

/** The request's cookies by name (first occurrence wins, values percent-decoded). */
export function readCookies(req: TokenRequest): Record<string, string | undefined> {
  const header = readHeader(req, "cookie")
  return header ? parseCookieHeader(header) : {}
}

/**
 * The session cookie's value(s): the cookie named exactly `name`, then chunks `name.0`,
 * `name.1`, … joined in order up to the first gap. Other cookies that merely start with
 * `name` (`name.x`, `name-old`, `name.7` after a gap) are never read.
 */
export function sessionCookieCandidates(
  cookies: Record<string, string | undefined>,
  name: string,
): string[] {
  const candidates: string[] = []
  const whole = cookies[name]
  if (whole) candidates.push(whole)
  let joined = ""
  for (let i = 0; ; i++) {
    const chunk = cookies[`${name}.${i}`]
    if (!chunk) break
    joined += chunk
  }
  if (joined) candidates.push(joined)
  return candidates
}

/** What `decodeFirstCandidate` calls: the built-in `decode` or the app's `jwt.decode`. */
export type CandidateDecoder<T> = (params: {
  token: string
  secret: string | string[]
  salt: string
}) => T | null | PromiseLike<T | null>

/**
 * The first candidate value that decodes, with its payload, or `null`. A custom decoder may
 * throw on a bad token; that is still just a token that did not decode.
 */
export async function decodeFirstCandidate<T>(
  candidates: readonly string[],
  decode: CandidateDecoder<T>,
  secret: string | string[],
  salt: string,
): Promise<{ payload: T; token: string } | null> {
  for (const token of candidates) {
    try {
      const payload = await decode({ token, secret, salt })
      if (payload) return { payload, token }
    } catch {
      // Treated as a token that did not decode.
    }
  }
  return null
}

/** The token of a request, or `null` if it carries none (or a malformed bearer token). */
export function readTokenFromRequest(req: TokenRequest, cookieName: string): FoundToken | null {
  const fromCookie = sessionCookieCandidates(readCookies(req), cookieName)
  if (fromCookie.length > 0) return { source: "cookie", candidates: fromCookie }

  const authorization = readHeader(req, "authorization")
  if (!authorization) return null
  const [scheme, value, ...rest] = authorization.split(" ")
  if (scheme !== "Bearer" || !value || rest.length > 0) return null
  try {
    return { source: "bearer", candidates: [decodeURIComponent(value)] }
  } catch {
    return null
  }
}
