/**
 * Cookies on the wire: the `Cookie` header read, one `Set-Cookie` value written, deletion
 * entries. Reading and writing follow the `cookie` package (v1, what Auth.js vendors) rule for
 * rule, and `test/cookies/wire.test.ts` proves them equal to it on arbitrary input. It is not a
 * dependency because the bundle of every app would carry all of it: its current major needs a
 * newer Node than ours, and the one before is CommonJS, which no bundler trims.
 */
import type { CookieOption, ResponseCookie } from "../types/cookies.js"

// RFC 6265 §4.1.1 and §5.2 as the `cookie` package reads them: a name is visible ASCII but `;`
// and `=`; a value visible ASCII but `;`; a domain dot-separated labels; a path no control
// character and no `;`.
const cookieName = /^[\u0021-\u003A\u003C\u003E-\u007E]+$/
const domainValue =
  /^([.]?[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)([.][a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i
const pathValue = /^[\u0020-\u003A\u003D-\u007E]*$/

/** The request's cookies (first occurrence of a name wins; values percent-decoded). */
export function parseCookieHeader(header: string | null | undefined): Record<string, string> {
  // No prototype: a cookie named `__proto__` or `constructor` is just a name.
  const cookies: Record<string, string> = Object.create(null)
  // A pair needs a name of at least one character and its `=`.
  if (!header || header.length < 2) return cookies
  // Scanned by index, not split and trimmed by a regular expression: this runs on every
  // request, and the scan costs half as much. Each character is looked at a bounded number of
  // times, however many pairs lack their `=` (a header of 8 KB of `;` costs what 8 KB does).
  let start = 0
  let eq = header.indexOf("=")
  while (eq !== -1) {
    let end = header.indexOf(";", start)
    if (end === -1) end = header.length
    if (eq > end) {
      // The pairs before the one holding the next `=` have none: go on from that one.
      start = header.lastIndexOf(";", eq - 1) + 1
      continue
    }
    const name = unpadded(header, start, eq)
    cookies[name] ??= decodeValue(unpadded(header, eq + 1, end))
    start = end + 1
    eq = header.indexOf("=", start)
  }
  return cookies
}

/** `text` from `start` to `end` without the spaces and tabs around it (the header's padding). */
function unpadded(text: string, start: number, end: number): string {
  while (start < end && isBlank(text.charCodeAt(start))) start++
  while (end > start && isBlank(text.charCodeAt(end - 1))) end--
  return text.slice(start, end)
}

const isBlank = (code: number) => code === 0x20 || code === 0x09

/** Percent-decoded, or as sent when it is not valid percent-encoding. */
function decodeValue(value: string): string {
  if (!value.includes("%")) return value
  try {
    return decodeURIComponent(value)
  } catch {
    return value
  }
}

/**
 * One `Set-Cookie` header value. Throws a `TypeError` naming the attribute for a name, domain,
 * path, `maxAge`, `expires`, `priority` or `sameSite` that cannot be written: these come from
 * configuration, and a header must never carry what would end or extend it.
 */
export function serializeCookie({ name, value, options }: ResponseCookie): string {
  if (!cookieName.test(name)) throw new TypeError(`argument name is invalid: ${name}`)
  // Percent-encoding leaves only characters a cookie value may hold.
  let header = `${name}=${value ? encodeURIComponent(value) : ""}`
  const { maxAge, domain, path, expires, priority, sameSite } = options
  if (maxAge !== undefined) {
    if (!Number.isInteger(maxAge)) throw new TypeError(`option maxAge is invalid: ${maxAge}`)
    header += `; Max-Age=${maxAge}`
  }
  if (domain) {
    if (!domainValue.test(domain)) throw new TypeError(`option domain is invalid: ${domain}`)
    header += `; Domain=${domain}`
  }
  if (path) {
    if (!pathValue.test(path)) throw new TypeError(`option path is invalid: ${path}`)
    header += `; Path=${path}`
  }
  if (expires) {
    if (!(expires instanceof Date) || !Number.isFinite(expires.valueOf()))
      throw new TypeError(`option expires is invalid: ${expires}`)
    header += `; Expires=${expires.toUTCString()}`
  }
  if (options.httpOnly) header += "; HttpOnly"
  if (options.secure) header += "; Secure"
  if (options.partitioned) header += "; Partitioned"
  if (priority) header += `; Priority=${attributeWord("priority", priority, PRIORITIES)}`
  if (sameSite) header += `; SameSite=${attributeWord("sameSite", sameSite, SAME_SITES)}`
  return header
}

const PRIORITIES: Readonly<Record<string, string>> = { low: "Low", medium: "Medium", high: "High" }
const SAME_SITES: Readonly<Record<string, string>> = {
  true: "Strict",
  strict: "Strict",
  lax: "Lax",
  none: "None",
}

/** How `value` is written (`Lax`, `High`), given in any case; a `TypeError` if it is none. */
function attributeWord(option: string, value: unknown, words: Readonly<Record<string, string>>) {
  const key = typeof value === "string" ? value.toLowerCase() : value === true ? "true" : ""
  const word = Object.hasOwn(words, key) ? words[key] : undefined
  if (word === undefined) throw new TypeError(`option ${option} is invalid: ${value}`)
  return word
}

/** The entry that makes the browser forget `name` (same attributes, empty, `Max-Age=0`). */
export function deletionCookie(name: string, options: CookieOption["options"]): ResponseCookie {
  const { expires: _expires, ...rest } = options
  return { name, value: "", options: { ...rest, maxAge: 0 } }
}

/** Add or replace (by name) cookies in an outgoing list, keeping the latest entry per name. */
export function putCookies(list: ResponseCookie[], cookies: readonly ResponseCookie[]): void {
  for (const cookie of cookies) {
    const at = list.findIndex((c) => c.name === cookie.name)
    if (at === -1) list.push(cookie)
    else list[at] = cookie
  }
}
