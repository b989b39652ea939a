/**
 * The second-factor pages: the code form (with a recovery-code form beside it), the enrollment
 * page (QR code, the secret to type by hand, the first code) and the recovery codes shown once.
 * No script: forms post, so they work without JavaScript under the pages' CSP.
 */
import { escapeHtml, safeLinkUrl } from "../../kernel/pages/escape.js"
import { type PageResponse, type PageTheme, renderLayout } from "../../kernel/pages/layout.js"
import { signInExpired } from "../../kernel/pages/messages.js"

const css = `.qr{display:block;width:12rem;height:12rem;margin:0 auto 1rem}
.qr svg{width:100%;height:100%}
.secret{font-family:ui-monospace,monospace;word-break:break-all;text-align:center}
.codes{list-style:none;padding:0;display:grid;grid-template-columns:1fr 1fr;gap:.25rem 1rem;font-family:ui-monospace,monospace;text-align:center}
.field{display:flex;flex-direction:column;gap:.25rem;margin-bottom:1rem}
.field input{padding:.5rem .75rem;border:1px solid var(--input-border);border-radius:8px;background:var(--input-bg);color:var(--text);font:inherit}
.divider{text-align:center;margin:1.5rem 0 1rem}
.back{margin-top:1.5rem;text-align:center}`

const errorText: Readonly<Record<string, string>> = {
  InvalidTwoFactorCode: "That code did not work. Check your authenticator app and try again.",
  RateLimited: "Too many attempts. Wait a while, then try again.",
  TwoFactorStateError: "This step is not available any more. Sign in again.",
  TwoFactorSignInExpired: signInExpired,
  MissingCSRF: "The form expired. Try again.",
  StoreError: "Sign-in is unavailable for a moment. Try again shortly.",
}

function alert(error: string | undefined): string {
  if (!error) return ""
  const text = errorText[error] ?? "That did not work. Try again."
  return `<div class="alert" role="alert"><p>${escapeHtml(text)}</p></div>\n`
}

/**
 * The pages' heading and the way out: the second factor is a step of signing in, shown under
 * the sign-in page's heading, with a link back to it (another account, another method).
 */
function header(step: string, error: string | undefined): string {
  return `<h1>Sign in</h1>\n<p class="center muted" data-two-factor-step>${escapeHtml(step)}</p>\n${alert(error)}`
}

function backToSignIn(signInUrl: string | undefined): string {
  const safe = signInUrl === undefined ? undefined : safeLinkUrl(signInUrl)
  if (safe === undefined) return ""
  return `<p class="back"><a href="${escapeHtml(safe)}" data-back-to-sign-in>Back to sign in</a></p>\n`
}

function hidden(csrfToken: string): string {
  return `<input type="hidden" name="csrfToken" value="${escapeHtml(csrfToken)}">\n`
}

function action(url: string): string {
  const safe = safeLinkUrl(url)
  return safe === undefined ? "" : ` action="${escapeHtml(safe)}"`
}

export interface TwoFactorCodePageProps {
  theme: PageTheme
  /** The sign-in page (`pages.signIn` or the built-in one), linked as the way back. */
  signInUrl?: string
  verifyUrl: string
  csrfToken: string
  error?: string | undefined
}

export function renderTwoFactorCodePage(props: TwoFactorCodePageProps): PageResponse {
  let body = header("Two-factor sign-in", props.error)
  body += `<p class="center muted">Enter the 6-digit code from your authenticator app.</p>\n`
  body += `<form${action(props.verifyUrl)} method="post">\n${hidden(props.csrfToken)}`
  body += `<div class="field"><label for="two-factor-code">Code</label>`
  body += `<input id="two-factor-code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,7}" maxlength="7" required autofocus></div>\n`
  body += `<button type="submit" class="button">Verify</button>\n</form>\n`
  body += `<p class="divider muted">Lost your device?</p>\n`
  body += `<form${action(props.verifyUrl)} method="post">\n${hidden(props.csrfToken)}`
  body += `<div class="field"><label for="two-factor-recovery">Recovery code</label>`
  body += `<input id="two-factor-recovery" name="recoveryCode" autocomplete="off" spellcheck="false" maxlength="16" required></div>\n`
  body += `<button type="submit" class="button">Use recovery code</button>\n</form>\n`
  body += backToSignIn(props.signInUrl)
  return {
    status: 200,
    html: renderLayout({ title: "Two-factor sign-in", theme: props.theme, body, css }),
  }
}

export interface TwoFactorEnrollPageProps {
  theme: PageTheme
  /** The sign-in page (`pages.signIn` or the built-in one), linked as the way back. */
  signInUrl?: string
  confirmUrl: string
  csrfToken: string
  /** The QR code: an SVG produced by the core (not user input). */
  qrSvg: string
  secret: string
  error?: string | undefined
}

export function renderTwoFactorEnrollPage(props: TwoFactorEnrollPageProps): PageResponse {
  let body = header("Set up two-factor sign-in", props.error)
  body += `<p class="center muted">This account needs a second factor. Scan the code with an authenticator app, then enter the code it shows.</p>\n`
  // The SVG is ours (uqr's output for our otpauth:// URI): paths and rects only, no script.
  body += `<div class="qr" aria-hidden="true">${props.qrSvg}</div>\n`
  body += `<p class="center muted">Or type this secret:</p>\n<p class="secret" data-two-factor-secret>${escapeHtml(props.secret)}</p>\n`
  body += `<form${action(props.confirmUrl)} method="post">\n${hidden(props.csrfToken)}`
  body += `<div class="field"><label for="two-factor-code">Code</label>`
  body += `<input id="two-factor-code" name="code" inputmode="numeric" autocomplete="one-time-code" pattern="[0-9 ]{6,7}" maxlength="7" required autofocus></div>\n`
  body += `<button type="submit" class="button">Turn on and continue</button>\n</form>\n`
  body += backToSignIn(props.signInUrl)
  return {
    status: 200,
    html: renderLayout({ title: "Set up two-factor sign-in", theme: props.theme, body, css }),
  }
}

export interface RecoveryCodesPageProps {
  theme: PageTheme
  codes: readonly string[]
  continueUrl: string
}

export function renderRecoveryCodesPage(props: RecoveryCodesPageProps): PageResponse {
  let body = `<h1>Your recovery codes</h1>\n`
  body += `<p class="center muted">Keep these somewhere safe. Each works once, if you lose your authenticator. They are shown only now.</p>\n`
  body += `<ul class="codes" data-recovery-codes>${props.codes.map((c) => `<li>${escapeHtml(c)}</li>`).join("")}</ul>\n`
  const next = safeLinkUrl(props.continueUrl) ?? "/"
  body += `<p class="center"><a class="button" href="${escapeHtml(next)}">Continue</a></p>\n`
  return {
    status: 200,
    html: renderLayout({ title: "Recovery codes", theme: props.theme, body, css }),
  }
}
