/**
 * The built-in pages of password accounts: the pages a mailed link opens (confirm the address,
 * choose a new password, confirm a new address) and the sign-up and forgot forms. A link's page
 * never consumes its token: only the page's POST does (mail scanners that follow links with GET
 * consume nothing). Pages that carry a token in their URL load nothing from anywhere (no logo),
 * so no `Referer` can leak it.
 */
import { escapeHtml } from "../../kernel/pages/escape.js"
import {
  formAction,
  hiddenFields,
  type PageResponse,
  type PageTheme,
  renderLayout,
} from "../../kernel/pages/layout.js"

function hidden(fields: Record<string, string | undefined>): string {
  let out = ""
  for (const [name, value] of Object.entries(fields)) {
    if (typeof value === "string" && value !== "") {
      out += `<input type="hidden" name="${name}" value="${escapeHtml(value)}">\n`
    }
  }
  return out
}

function withoutLogo(theme: PageTheme): PageTheme {
  const { logo: _logo, ...rest } = theme
  return rest
}

export interface LinkPageProps {
  actionUrl: string
  token: string
  uid: string
  email: string
  /** A verification link's signing-up browser (`sign-up-browser.ts`): posted back as it came. */
  browser?: string | undefined
  csrfToken: string
  theme: PageTheme
}

function linkFields(props: LinkPageProps): string {
  const { token, uid, email, browser, csrfToken } = props
  return hidden({ token, uid, email, browser, csrfToken })
}

/** `GET password/verify` and `password/email-change`: one button that confirms the address. */
export function renderConfirmAddressPage(
  props: LinkPageProps & { kind: "verify" | "email-change" },
): PageResponse {
  const title =
    props.kind === "verify" ? "Confirm your email address" : "Confirm your new email address"
  const body =
    `<h1>${title}</h1>\n` +
    `<p class="center"><strong>${escapeHtml(props.email)}</strong></p>\n` +
    `<form${formAction(props.actionUrl)} method="post">\n` +
    linkFields(props) +
    `<button type="submit" class="button">Confirm</button>\n</form>\n` +
    `<p class="center muted">The link works once. If you did not ask for this, close this page.</p>`
  return { status: 200, html: renderLayout({ title, theme: withoutLogo(props.theme), body }) }
}

/**
 * `GET password/reset`: the new-password form. Also `GET password/verify` opened in a browser
 * that did not sign up (`kind: "verify"`): the link proves the mailbox, not the password chosen
 * at sign-up, so the person confirming chooses their own.
 */
export function renderResetPage(
  props: LinkPageProps & { minLength: number; kind?: "reset" | "verify" },
): PageResponse {
  const intro =
    props.kind === "verify"
      ? "<h1>Confirm your address and choose a password</h1>\n" +
        `<p class="center">For <strong>${escapeHtml(props.email)}</strong></p>\n` +
        `<p class="center muted">This link was opened in another browser than the one that signed up, so the password chosen there is not kept: choose one here.</p>\n`
      : "<h1>Choose a new password</h1>\n" +
        `<p class="center">For <strong>${escapeHtml(props.email)}</strong></p>\n`
  const body =
    intro +
    `<form${formAction(props.actionUrl)} method="post">\n` +
    linkFields(props) +
    `<label class="section-header" for="input-password">New password</label>\n` +
    `<input id="input-password" name="password" type="password" autocomplete="new-password" minlength="${props.minLength}" required>\n` +
    `<button type="submit" class="button">Set password and sign in</button>\n</form>\n` +
    `<p class="center muted">Every device signed in to this account is signed out.</p>`
  return {
    status: 200,
    html: renderLayout({ title: "Reset password", theme: withoutLogo(props.theme), body }),
  }
}

export interface FormPageProps {
  actionUrl: string
  csrfToken: string
  callbackUrl?: string
  signInUrl: string
  theme: PageTheme
  minLength: number
  /** A message to show above the form (a refusal from the last post). */
  notice?: string
}

function noticeHtml(notice: string | undefined): string {
  return notice ? `<p class="error" role="alert">${escapeHtml(notice)}</p>\n` : ""
}

/** `GET password/signup`: email and password. */
export function renderSignUpPage(props: FormPageProps): PageResponse {
  const body =
    "<h1>Create an account</h1>\n" +
    noticeHtml(props.notice) +
    `<form${formAction(props.actionUrl)} method="post">\n` +
    hiddenFields({ csrfToken: props.csrfToken, callbackUrl: props.callbackUrl }) +
    `<label class="section-header" for="input-email">Email</label>\n` +
    `<input id="input-email" name="email" type="email" autocomplete="username" required>\n` +
    `<label class="section-header" for="input-password">Password</label>\n` +
    `<input id="input-password" name="password" type="password" autocomplete="new-password" minlength="${props.minLength}" required>\n` +
    `<button type="submit" class="button">Create account</button>\n</form>\n` +
    `<p class="center"><a href="${escapeHtml(props.signInUrl)}">Sign in instead</a></p>`
  return { status: 200, html: renderLayout({ title: "Sign up", theme: props.theme, body }) }
}

/** `GET password/forgot`: the address to send a reset link to. */
export function renderForgotPage(props: FormPageProps): PageResponse {
  const body =
    "<h1>Forgot your password?</h1>\n" +
    noticeHtml(props.notice) +
    `<form${formAction(props.actionUrl)} method="post">\n` +
    hiddenFields({ csrfToken: props.csrfToken, callbackUrl: props.callbackUrl }) +
    `<label class="section-header" for="input-email">Email</label>\n` +
    `<input id="input-email" name="email" type="email" autocomplete="username" required>\n` +
    `<button type="submit" class="button">Send a reset link</button>\n</form>\n` +
    `<p class="center"><a href="${escapeHtml(props.signInUrl)}">Back to sign in</a></p>`
  return {
    status: 200,
    html: renderLayout({ title: "Forgot password", theme: props.theme, body }),
  }
}

/** The answer to sign-up, resend and forgot, whatever the address: check your mail. */
export function renderCheckMailPage(props: { theme: PageTheme; signInUrl: string }): PageResponse {
  const body =
    "<h1>Check your email</h1>\n" +
    `<p class="center">If the address can receive it, a mail with a link is on its way. The link works once.</p>\n` +
    `<p class="center"><a href="${escapeHtml(props.signInUrl)}">Back to sign in</a></p>`
  return {
    status: 200,
    html: renderLayout({ title: "Check your email", theme: props.theme, body }),
  }
}
