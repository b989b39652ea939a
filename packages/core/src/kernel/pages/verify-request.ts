import { escapeHtml, safeLinkUrl } from "./escape.js"
import { type PageResponse, type PageTheme, renderLayout } from "./layout.js"

export interface VerifyRequestPageProps {
  homeUrl: string
  theme: PageTheme
  email?: string
}

export function renderVerifyRequestPage(props: VerifyRequestPageProps): PageResponse {
  const sentTo =
    typeof props.email === "string" && props.email !== ""
      ? `A sign in link has been sent to <strong>${escapeHtml(props.email)}</strong>.`
      : "A sign in link has been sent to your email address."
  const home = safeLinkUrl(props.homeUrl)
  let body = `<h1>Check your email</h1>\n<p class="center">${sentTo}</p>\n`
  body += `<p class="center muted">You can close this page and open the link from your inbox.</p>\n`
  if (home !== undefined) {
    body += `<p class="center"><a href="${escapeHtml(home)}">${escapeHtml(linkText(home))}</a></p>\n`
  }
  return {
    status: 200,
    html: renderLayout({ title: "Verify Request", theme: props.theme, body }),
  }
}

/** "Back to example.com" for an absolute URL, as Auth.js names the site by its host. */
function linkText(url: string): string {
  return URL.canParse(url) ? `Back to ${new URL(url).host}` : "Back to the site"
}
