/**
 * The session cookie, whole or split into `<name>.0`, `<name>.1`, … when one `Set-Cookie`
 * header would exceed 4096 bytes (the common limit of browsers, nginx and ingress buffers).
 * Sizes are measured on the serialized header, attributes included, not estimated.
 */
import type { CookieOption, ResponseCookie } from "../types/cookies.js"
import { deletionCookie, serializeCookie } from "./serialize.js"

/** Upper bound of one full header line: `Set-Cookie: <name>=<value>; <attributes>`. */
export const MAX_SET_COOKIE_HEADER_BYTES = 4096
const HEADER_PREFIX_BYTES = "Set-Cookie: ".length
const encoder = new TextEncoder()

function headerBytes(cookie: ResponseCookie): number {
  return HEADER_PREFIX_BYTES + encoder.encode(serializeCookie(cookie)).byteLength
}

/**
 * Every cookie of the request that belongs to this session cookie: the exact name and any
 * `name.<digits>` (gaps included, so stale chunks are deleted too). Nothing else that merely
 * starts with the name.
 */
export function presentSessionCookieNames(
  cookies: Readonly<Record<string, string | undefined>>,
  name: string,
): string[] {
  const prefix = `${name}.`
  return Object.keys(cookies).filter(
    (key) => key === name || (key.startsWith(prefix) && CHUNK_INDEX.test(key.slice(prefix.length))),
  )
}

/** A chunk suffix as we write them: a decimal index without leading zeros. */
const CHUNK_INDEX = /^(0|[1-9][0-9]{0,3})$/

/**
 * Cookies that store `value` under `name`, chunked if needed, plus deletions for every cookie
 * of `present` the new set does not overwrite (so shrinking from 3 chunks to 1 leaves no stale
 * `.1`/`.2`, and switching between whole and chunked leaves no orphan).
 */
export function writeSessionCookies(
  name: string,
  value: string,
  options: CookieOption["options"],
  present: readonly string[],
): ResponseCookie[] {
  const whole: ResponseCookie = { name, value, options }
  const written =
    headerBytes(whole) <= MAX_SET_COOKIE_HEADER_BYTES ? [whole] : chunk(name, value, options)
  const names = new Set(written.map((c) => c.name))
  const stale = present.filter((n) => !names.has(n)).map((n) => deletionCookie(n, options))
  return [...stale, ...written]
}

/** Deletions for every session cookie (whole and chunks) the request carried. */
export function clearSessionCookies(
  options: CookieOption["options"],
  present: readonly string[],
): ResponseCookie[] {
  return present.map((n) => deletionCookie(n, options))
}

function chunk(name: string, value: string, options: CookieOption["options"]): ResponseCookie[] {
  const out: ResponseCookie[] = []
  let rest = value
  for (let i = 0; rest.length > 0; i++) {
    const chunkName = `${name}.${i}`
    const budget =
      MAX_SET_COOKIE_HEADER_BYTES - headerBytes({ name: chunkName, value: "", options })
    if (budget <= 0) throw new RangeError("session cookie attributes alone exceed 4096 bytes")
    // Session tokens are base64url and dots, which serialize 1:1; the loop below only matters
    // for a custom `jwt.encode` producing characters that percent-encode to several bytes.
    let take = Math.min(budget, rest.length)
    while (take > 1 && encodedBytes(rest.slice(0, take)) > budget) {
      take -= Math.max(1, Math.ceil((encodedBytes(rest.slice(0, take)) - budget) / 3))
    }
    out.push({ name: chunkName, value: rest.slice(0, take), options })
    rest = rest.slice(take)
  }
  return out
}

function encodedBytes(text: string): number {
  return encodeURIComponent(text).length
}
