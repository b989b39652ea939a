/**
 * A configuration problem met by a browser page (`GET|HEAD` of signin, signout, error,
 * verify-request): a person is looking, so they get a page, not JSON. The custom `pages.error`
 * when set and not the page being served (no loop), else the built-in error page, 500.
 *
 * Without a trusted origin (`UntrustedHost`) every URL stays relative: the Host header is the
 * one thing we may not build links or redirects from.
 */
import type { ResolvedConfig } from "../config/resolve.js"
import { renderErrorPage } from "../pages/index.js"
import type { AuthAction } from "./actions.js"
import type { Outcome } from "./outcome.js"

const PAGE_ACTIONS: ReadonlySet<AuthAction> = new Set([
  "signin",
  "signout",
  "error",
  "verify-request",
])

export function isPageRequest(action: AuthAction, method: string): boolean {
  return (method === "GET" || method === "HEAD") && PAGE_ACTIONS.has(action)
}

/**
 * The outcome for a page request under a configuration error. `origin` is `undefined` when the
 * host is not trusted; the redirect URL is then a path (`toLocation` must not absolutise it).
 */
export function configErrorPage(
  config: ResolvedConfig,
  requestUrl: URL,
  origin: string | undefined,
): Outcome {
  const custom = config.pages.error
  if (custom !== undefined) {
    const target = new URL(custom, origin ?? requestUrl)
    // The app's origin (AUTH_URL) may differ from the URL the server saw behind a proxy.
    const appOrigin = origin ?? requestUrl.origin
    const loop = target.origin === appOrigin && target.pathname === requestUrl.pathname
    if (!loop) {
      target.searchParams.set("error", "Configuration")
      const absolute = origin !== undefined || URL.canParse(custom)
      return {
        kind: "redirect",
        url: absolute ? target.href : `${target.pathname}${target.search}`,
      }
    }
  }
  const base = `${origin ?? ""}${config.basePath === "/" ? "" : config.basePath}`
  const page = renderErrorPage({
    error: "Configuration",
    signInUrl: `${base}/signin`,
    homeUrl: origin ?? "/",
    theme: config.theme,
  })
  return { kind: "html", status: page.status, html: page.html }
}
