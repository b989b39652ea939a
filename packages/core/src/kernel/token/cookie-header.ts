/**
 * The `Cookie` header read: by the `cookie` package's rules (v1, what Auth.js vendors), which
 * `test/cookies/wire.test.ts` proves on arbitrary input. Part of the token module because
 * `getToken` reads the session cookie with it; the kernel's request parsing uses it too.
 */

/**
 * The parsed cookies' object: no prototype, so a cookie named `__proto__` or `constructor` is
 * just a name. Made by `new` from a prototype-less function rather than `Object.create(null)`,
 * which V8 keeps in its slow dictionary mode: reading the session cookie from it cost a fifth of
 * `getToken` (the `cookie` package does the same).
 */
const Cookies = /* @__PURE__ */ (() => {
  // A function, not a class: a class's prototype would carry `constructor`.
  function Cookies() {}
  Cookies.prototype = Object.create(null)
  return Cookies as unknown as new () => Record<string, string>
})()

/** The request's cookies (first occurrence of a name wins; values percent-decoded). */
export function parseCookieHeader(header: string | null | undefined): Record<string, string> {
  const cookies = new Cookies()
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
