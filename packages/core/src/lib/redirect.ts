/**
 * Where users may be sent. The default `redirect` callback resolves the target the way a
 * browser would and keeps it only if it stays on the app's origin; every final `Location` also
 * passes `toLocation`, which guarantees an absolute http(s) URL without control characters.
 */

/**
 * Default `redirect` callback: relative paths and same-origin URLs only; everything else
 * (other hosts, `//host`, `/\host`, `javascript:`, userinfo tricks, …) falls back to `baseUrl`.
 */
export function defaultRedirect({ url, baseUrl }: { url: string; baseUrl: string }): string {
  try {
    const base = new URL(baseUrl)
    // The WHATWG parser is what the browser will apply to Location, so judging its result
    // (not the raw string) closes the parser-differential vectors: `/\evil`, tabs, newlines.
    const target = new URL(url, base)
    if (target.origin === base.origin) return target.href
  } catch {}
  return baseUrl
}

/**
 * The value to put in `Location`: `target` resolved against `baseUrl`, only if it is http(s);
 * otherwise `baseUrl`. The URL serializer strips tabs and newlines and percent-encodes the
 * rest, so no CR/LF (header injection) can survive.
 */
export function toLocation(target: string, baseUrl: string): string {
  try {
    const url = new URL(target, baseUrl)
    if ((url.protocol === "http:" || url.protocol === "https:") && !hasControlCharacter(url.href)) {
      return hrefOf(url)
    }
  } catch {}
  return hrefOf(new URL(baseUrl))
}

/**
 * The origin alone is written `https://app.example`, as Auth.js writes it (its `baseUrl`) in the
 * `{ url }` JSON and the callback-url cookie that apps compare against; any path keeps `href`.
 */
function hrefOf(url: URL): string {
  return url.pathname === "/" && url.search === "" && url.hash === "" ? url.origin : url.href
}

function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (code < 0x20 || code === 0x7f) return true
  }
  return false
}
