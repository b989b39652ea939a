/**
 * Cookies on the wire, outgoing: one `Set-Cookie` value written, deletion entries. Written by
 * the `cookie` package's rules (v1, what Auth.js vendors), and `test/cookies/wire.test.ts`
 * proves the two equal on arbitrary input; the `Cookie` header is read by the token module
 * (`kernel/token/cookie-header.ts`), which `getToken` needs on its own. Not the package itself:
 * the bundle of every app would carry all of it, as its current major needs a newer Node than
 * ours and the one before is CommonJS, which no bundler trims.
 */
import type { CookieOption, ResponseCookie } from "../types/cookies.js"

// RFC 6265 §4.1.1 and §5.2 as the `cookie` package reads them: a name is visible ASCII but `;`
// and `=`; a domain dot-separated labels; a path no control character and no `;`.
const cookieName = /^[\u0021-\u003A\u003C\u003E-\u007E]+$/
const domainValue =
  /^([.]?[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)([.][a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i
const pathValue = /^[\u0020-\u003A\u003D-\u007E]*$/

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
