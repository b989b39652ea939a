import { escapeHtml, safeLinkUrl } from "./escape.js"
import { type PageResponse, type PageTheme, renderLayout } from "./layout.js"
import { errorPageContent } from "./messages.js"

export interface ErrorPageProps {
  error?: string
  signInUrl: string
  homeUrl: string
  theme: PageTheme
  /** For refusals that end by themselves: when to try again (also the `Retry-After` header). */
  retryAfterSeconds?: number
}

/**
 * The status follows the error (Auth.js answers 200 for most), so monitoring and caches see a
 * failure. The sign-in link is `signInUrl` as given: Auth.js appends `/signin` to the full
 * request URL and links to a page that does not exist.
 */
export function renderErrorPage(props: ErrorPageProps): PageResponse {
  const content = errorPageContent(props.error)
  const [href, text] = content.signInLink
    ? [safeLinkUrl(props.signInUrl), "Sign in"]
    : [safeLinkUrl(props.homeUrl), "Go to the home page"]
  let body = `<h1>${escapeHtml(content.heading)}</h1>\n<p class="center">${escapeHtml(content.message)}</p>\n`
  if (props.retryAfterSeconds !== undefined) {
    body += `<p class="center">${escapeHtml(waitSentence(props.retryAfterSeconds))}</p>\n`
  }
  if (content.code !== undefined) {
    // Only a listed type gets here, so this is a fixed string, not the query echoed back.
    body += `<p class="center muted">Error code: <code>${escapeHtml(content.code)}</code></p>\n`
  }
  if (href !== undefined) {
    body += `<a class="button" href="${escapeHtml(href)}">${text}</a>\n`
  }
  return {
    status: content.status,
    html: renderLayout({ title: "Error", theme: props.theme, body }),
  }
}

function waitSentence(seconds: number): string {
  if (seconds < 60) return `You can try again in ${seconds} second${seconds === 1 ? "" : "s"}.`
  const minutes = Math.ceil(seconds / 60)
  return `You can try again in about ${minutes} minute${minutes === 1 ? "" : "s"}.`
}
