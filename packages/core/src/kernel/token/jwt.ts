/**
 * The token module: session tokens as encrypted JWTs (compact JWE, `dir` + `A256CBC-HS512`),
 * byte-compatible with `@auth/core/jwt`. `decode` and `getToken` return `null` for any bad
 * token and never throw for one.
 *
 * (The module behind `@latchkey/core/jwt`.)
 */

import { MissingSecret } from "../errors/errors.js"
import { readProcessEnv } from "../runtime/process-env.js"
import { decodeToken, type EncodeInput, encodeToken } from "./codec.js"
import { decodeFirstCandidate, readTokenFromRequest, type TokenRequest } from "./read-request.js"
import { sessionCookieName } from "./session-cookie-name.js"

/** Claims Latchkey itself puts in a session token. */
export interface DefaultJWT extends Record<string, unknown> {
  name?: string | null
  email?: string | null
  picture?: string | null
  sub?: string
  iat?: number
  exp?: number
  jti?: string
  /** Session id (Latchkey): stable across re-issues; what sign-out and `revokeSession` end. */
  sid?: string
  /** When the user signed in (seconds since the epoch), as in OpenID Connect. */
  auth_time?: number
  /** The user's session version at sign-in (Latchkey); see `revokeUserSessions`. */
  sv?: number
  /**
   * How the user signed in (RFC 8176 values: `pwd`, `otp`, `hwk`, `user`, …), kept across
   * re-issues like `auth_time`; `requireRecentAuth({ factors })` asks for them.
   */
  amr?: string[]
  /**
   * Latchkey: when a session whose sign-in time is unknown (no `auth_time`: issued by Auth.js
   * or before Latchkey stamped it) was first re-issued here. `absoluteMaxAge` counts from it;
   * it is never a sign-in time, so such a session never counts as a recent sign-in.
   */
  sst?: number
  /**
   * Latchkey: the account's address was unproven when this session was issued. Only such an
   * account can be claimed, so only such a session is checked against the account's state on
   * every read (docs/design/pending-grants.md).
   */
  unproven?: boolean
}

/** The decoded session token. Augment this interface to type your own claims. */
export interface JWT extends Record<string, unknown>, DefaultJWT {}

export interface JWTEncodeParams<Payload = JWT> {
  /** The claims to encrypt. `iat`, `exp` and `jti` are set by `encode`. Default `{}`. */
  token?: Payload
  /** Used in key derivation: for session cookies, the session cookie's name. */
  salt: string
  /** One secret or several: the first one encrypts. */
  secret: string | string[]
  /** Seconds until the token expires. Default 30 days. */
  maxAge?: number
}

export interface JWTDecodeParams {
  /** The compact JWE to decrypt. Empty or missing gives `null`. */
  token?: string | null
  /** The salt it was encoded with. */
  salt: string
  /** One secret or several (rotation): any of them may have encrypted the token. */
  secret: string | string[]
}

/** The token options of the configuration (`jwt` key). */
export interface JWTOptions {
  secret: string | string[]
  maxAge: number
  encode: (params: JWTEncodeParams) => Awaitable<string>
  decode: (params: JWTDecodeParams) => Awaitable<JWT | null>
}

type Awaitable<T> = T | PromiseLike<T>

export interface GetTokenParams<R extends boolean = false> {
  /** The request to read the token from: a `Request` or anything with `headers`. */
  req: TokenRequest
  /** Use the `__Secure-` cookie name. Default: whether `AUTH_URL` starts with `https://`. */
  secureCookie?: boolean
  /** Default: the session cookie name for `secureCookie`. */
  cookieName?: string
  /** Return the token string without decrypting it. */
  raw?: R
  /** Default: `AUTH_SECRET` from the environment. */
  secret?: string | string[]
  /** Default: `cookieName`. */
  salt?: string
  /** A custom decoder, as configured in `jwt.decode`. */
  decode?: JWTOptions["decode"]
  /** Receives a debug line saying why no token was returned. */
  logger?: { debug?: (message: string, metadata?: unknown) => void }
}

/** Seconds in 30 days: the default session and token lifetime. */
export const DEFAULT_MAX_AGE = 30 * 24 * 60 * 60

/** Encrypt `token` into a compact JWE with `iat`, `exp` and a fresh `jti`. */
export function encode<Payload = JWT>(params: JWTEncodeParams<Payload>): Promise<string> {
  return encodeToken(params as EncodeInput)
}

/** Decrypt and validate a token; `null` for anything that is not a valid, current token. */
export function decode<Payload = JWT>(params: JWTDecodeParams): Promise<Payload | null> {
  return decodeToken(params) as Promise<Payload | null>
}

/**
 * Read the session token of a request (session cookie, chunked or not, then
 * `Authorization: Bearer`) and decrypt it. `null` when there is none or it is invalid.
 */
export async function getToken<R extends boolean = false>(
  params: GetTokenParams<R>,
): Promise<R extends true ? string | null : JWT | null>
export async function getToken(params: GetTokenParams<boolean>): Promise<string | JWT | null> {
  if (!params || typeof params !== "object" || !params.req) {
    throw new TypeError("getToken: the `req` parameter is required (a Request or { headers })")
  }
  const env = readProcessEnv()
  const secureCookie = params.secureCookie ?? env.AUTH_URL?.startsWith("https://") ?? false
  const cookieName = params.cookieName ?? sessionCookieName(secureCookie)
  const found = readTokenFromRequest(params.req, cookieName)
  if (found === null) {
    params.logger?.debug?.("getToken: no session cookie or bearer token", { cookieName })
    return null
  }
  if (params.raw) return found.candidates[0] ?? null

  const secret = params.secret ?? env.AUTH_SECRET
  if (!secret || (Array.isArray(secret) && secret.length === 0)) {
    throw new MissingSecret("getToken needs a secret: pass `secret` or set AUTH_SECRET")
  }
  const salt = params.salt ?? cookieName
  const decoded = await decodeFirstCandidate(
    found.candidates,
    params.decode ?? decode,
    secret,
    salt,
  )
  if (decoded) return decoded.payload
  params.logger?.debug?.("getToken: token did not decrypt or has expired", {
    cookieName,
    source: found.source,
  })
  return null
}
