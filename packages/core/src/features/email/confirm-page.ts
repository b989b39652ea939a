import { escapeHtml } from "../../kernel/pages/escape.js"
import {
  formAction,
  type PageResponse,
  type PageTheme,
  renderLayout,
} from "../../kernel/pages/layout.js"

export interface EmailConfirmPageProps {
  /** Where the button posts: `<origin><basePath>/callback/<id>`, without the query. */
  actionUrl: string
  token: string
  email: string
  callbackUrl?: string
  csrfToken: string
  theme: PageTheme
}

/**
 * The page a magic link opens. Mail scanners (Safe Links, Gmail's prefetch) follow links with
 * GET or HEAD; only this page's POST consumes the token, so a scanned link still works.
 *
 * The token sits in this page's URL, so the page loads nothing from anywhere: the theme's logo
 * is left out, because fetching it would send the URL, token included, in the `Referer`.
 */
export function renderEmailConfirmPage(props: EmailConfirmPageProps): PageResponse {
  const fields: Record<string, string | undefined> = {
    token: props.token,
    email: props.email,
    callbackUrl: props.callbackUrl,
    csrfToken: props.csrfToken,
  }
  let hidden = ""
  for (const [name, value] of Object.entries(fields)) {
    // An empty CSRF token means the framework checks CSRF itself (see `hiddenFields`).
    if (typeof value === "string" && value !== "") {
      hidden += `<input type="hidden" name="${name}" value="${escapeHtml(value)}">\n`
    }
  }
  const body =
    "<h1>Sign in</h1>\n" +
    `<p class="center">Continue as <strong>${escapeHtml(props.email)}</strong>?</p>\n` +
    `<form${formAction(props.actionUrl)} method="post">\n${hidden}` +
    `<button type="submit" class="button">Sign in</button>\n</form>\n` +
    `<p class="center muted">The link works once. If you did not ask to sign in, close this page.</p>`
  const { logo: _logo, ...theme } = props.theme
  return { status: 200, html: renderLayout({ title: "Sign In", theme, body }) }
}
