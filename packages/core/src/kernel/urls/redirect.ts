/**
 * Where users may be sent. The default `redirect` callback resolves the target the way a
 * browser would and keeps it only if it stays on the app's origin; every final `Location` also
 * passes `toLocation`, which guarantees an absolute http(s) URL without control characters.
 */

/**
 * The one normalisation of a redirect target (`redirectTo`, `callbackUrl`, a `redirect`
 * callback's answer), used by the core and the bindings alike: `target` resolved against
 * `base` as a browser would; `null` unless it is http(s) without control characters. Its path
 * keeps a single leading slash: `http://app//evil.example/x` (what `/..//evil.example/x`
 * resolves to) is on the app's origin, but once a binding strips the origin, `//evil.example/x`
 * is another host. The WHATWG parser already turned every `\` of an http(s) path into `/`.
 */
export function normalizeRedirect(target: string, base: string): URL | null {
  let url: URL
  try {
    url = new URL(target, base)
  } catch {
    return null
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return null
  if (/^\/{2,}/.test(url.pathname)) url.pathname = url.pathname.replace(/^\/+/, "/")
  return hasControlCharacter(url.href) ? null : url
}

/**
 * Default `redirect` callback: relative paths and same-origin URLs only; everything else
 * (other hosts, `//host`, `/\host`, `javascript:`, userinfo tricks, …) falls back to `baseUrl`.
 */
export function defaultRedirect({ url, baseUrl }: { url: string; baseUrl: string }): string {
  // The origins are compared after resolution: what the browser will apply to Location, so the
  // parser-differential vectors (`/\evil`, tabs, newlines) are judged by their result.
  const target = normalizeRedirect(url, baseUrl)
  const base = normalizeRedirect(baseUrl, baseUrl)
  return target && base && target.origin === base.origin ? target.href : baseUrl
}

/**
 * The value to put in `Location`: `target` normalised against `baseUrl` (see
 * {@link normalizeRedirect}); `baseUrl` when it is not usable. The URL serializer strips tabs
 * and newlines and percent-encodes the rest, so no CR/LF (header injection) can survive.
 */
export function toLocation(target: string, baseUrl: string): string {
  const url = normalizeRedirect(target, baseUrl)
  return hrefOf(url ?? new URL(baseUrl))
}

/**
 * For a binding that redirects within the app: `path?query#hash` when `target` is on
 * `origin` (one leading slash, so never `//host` or `/\host`), the absolute URL when it is
 * elsewhere, `/` when it is not a usable URL.
 */
export function redirectLocation(target: string, origin: string): string {
  const url = normalizeRedirect(target, origin)
  if (!url) return "/"
  if (url.origin !== new URL(origin).origin) return url.href
  return `${url.pathname}${url.search}${url.hash}`
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
