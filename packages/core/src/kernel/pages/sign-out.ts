import {
  formAction,
  hiddenFields,
  type PageResponse,
  type PageTheme,
  renderLayout,
} from "./layout.js"

export interface SignOutPageProps {
  csrfToken: string
  actionUrl: string
  callbackUrl: string
  theme: PageTheme
}

// A confirmation page rather than a link: signing out changes state, so it takes a POST that
// carries the CSRF token.
export function renderSignOutPage(props: SignOutPageProps): PageResponse {
  const hidden = hiddenFields({ csrfToken: props.csrfToken, callbackUrl: props.callbackUrl })
  const body =
    "<h1>Sign out</h1>\n" +
    `<p class="center">Are you sure you want to sign out?</p>\n` +
    `<form${formAction(props.actionUrl)} method="post">\n${hidden}` +
    `<button type="submit" class="button">Sign out</button>\n</form>`
  return { status: 200, html: renderLayout({ title: "Sign Out", theme: props.theme, body }) }
}
