/**
 * A coarse user agent for the "your devices" list: browser family and OS family ("Firefox on
 * Linux"), never versions or device models. Enough for a person to recognise a device; too
 * little to fingerprint one, and nothing a header can smuggle into a page (fixed names only).
 */

// Order matters: Edge and Opera say "Chrome" too, Chrome says "Safari".
const BROWSERS: readonly [RegExp, string][] = [
  [/\bEdg(e|A|iOS)?\//, "Edge"],
  [/\b(OPR|Opera)\//, "Opera"],
  [/\bSamsungBrowser\//, "Samsung Internet"],
  [/\b(Firefox|FxiOS)\//, "Firefox"],
  // "HeadlessChrome/…" has no word boundary before "Chrome": matched on its own.
  [/\b(Chrome|Chromium|CriOS|HeadlessChrome)\//, "Chrome"],
  [/\bSafari\//, "Safari"],
]

const SYSTEMS: readonly [RegExp, string][] = [
  [/\b(iPhone|iPad|iPod)\b/, "iOS"],
  [/\bAndroid\b/, "Android"],
  [/\bCrOS\b/, "ChromeOS"],
  [/\bWindows\b/, "Windows"],
  [/\bMac OS X\b|\bMacintosh\b/, "macOS"],
  [/\bLinux\b/, "Linux"],
]

const first = (table: readonly [RegExp, string][], ua: string) =>
  table.find(([pattern]) => pattern.test(ua))?.[1]

/** `"Browser on OS"`, one of them alone, or `undefined` when neither is recognised. */
export function coarseUserAgent(header: string | null | undefined): string | undefined {
  if (!header) return undefined
  const ua = header.slice(0, 512)
  const browser = first(BROWSERS, ua)
  const system = first(SYSTEMS, ua)
  if (browser && system) return `${browser} on ${system}`
  return browser ?? system
}
