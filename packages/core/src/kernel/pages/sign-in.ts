import { escapeHtml, safeImageUrl, safeLinkUrl } from "./escape.js"
import {
  formAction as action,
  cssDeclarations,
  hiddenFields,
  type PageResponse,
  type PageTheme,
  renderLayout,
} from "./layout.js"
import { signInErrorMessage } from "./messages.js"

/** A provider as the sign-in page needs it: resolved URLs, display data, credential fields. */
export interface PageProvider {
  id: string
  name: string
  type: "oauth" | "oidc" | "email" | "credentials" | "webauthn"
  signinUrl: string
  callbackUrl: string
  style?: { logo?: string; bg?: string; text?: string; brandColor?: string }
  credentials?: Record<
    string,
    { label?: string; type?: string; placeholder?: string; [attr: string]: unknown }
  >
  /** WebAuthn: `GET …/webauthn-options/<id>`, which the passkey script calls. */
  optionsUrl?: string
  /** WebAuthn: also offer passkeys in the email field's autofill. */
  conditionalUI?: boolean
  /** The `Password` provider: its sign-up, forgot and resend URLs (`{basePath}/password/*`). */
  password?: { signUpUrl: string; forgotUrl: string; resendUrl: string }
}

export interface SignInPageProps {
  providers: PageProvider[]
  /** Inline scripts the providers' entries need (a passkey form's), each named in the CSP. */
  scripts?: readonly string[]
  csrfToken: string
  callbackUrl: string
  error?: string
  /**
   * `CredentialsSignin`'s app-chosen code. Not shown: it may name the field that was wrong,
   * which the banner must never do. Custom sign-in pages receive it and may decide otherwise.
   */
  code?: string
  email?: string
  theme: PageTheme
  /** A note for the developer (development only), e.g. that the page's host is not AUTH_URL's. */
  developerNotice?: string
  /**
   * The user is signed in but a change needs a recent sign-in (`reauth=1`, set by
   * `requireRecentAuth` and the account actions): say why they are asked again.
   */
  reauth?: boolean
}

type CredentialField = NonNullable<PageProvider["credentials"]>[string]

interface Block {
  html: string
  css: string
  /** OAuth buttons stack into one group; every form-based provider is a group of its own. */
  group: "oauth" | "form"
}

const REAUTH_NOTICE =
  "Sign in again to continue: this change needs a recent sign-in, to be sure it is you."

export function renderSignInPage(props: SignInPageProps): PageResponse {
  const hidden = hiddenFields({ csrfToken: props.csrfToken, callbackUrl: props.callbackUrl })
  const blocks = props.providers
    .map((provider, index) => renderProvider(provider, index, hidden, props.email))
    .filter((block) => block !== undefined)
  // The right password of an unconfirmed account (`code=email-unverified`, shown only to
  // someone who knows the password): offer the verification link again.
  const password = props.providers.find((p) => p.password !== undefined)?.password
  if (password && props.error === "CredentialsSignin" && props.code === "email-unverified") {
    blocks.unshift(resendBlock(password.resendUrl, hidden, props.email))
  }

  let body = "<h1>Sign in</h1>\n"
  if (props.developerNotice !== undefined) {
    body += `<div class="alert" role="status" data-latchkey-notice="development"><p>${escapeHtml(props.developerNotice)}</p></div>\n`
  }
  if (props.reauth === true) {
    body += `<div class="alert" role="status" data-latchkey-notice="reauth"><p>${escapeHtml(REAUTH_NOTICE)}</p></div>\n`
  }
  if (props.error !== undefined && props.error !== "") {
    body += `<div class="alert" role="alert"><p>${escapeHtml(signInErrorMessage(props.error))}</p></div>\n`
  }
  if (blocks.length === 0) {
    body += `<p class="center muted">No sign-in methods are configured.</p>\n`
  }
  blocks.forEach((block, i) => {
    const previous = blocks[i - 1]
    if (previous !== undefined && (previous.group === "form" || block.group === "form")) {
      body += `<div class="divider">or</div>\n`
    }
    body += block.html
  })

  const css = blocks.map((block) => block.css).join("")
  // Scripts only when an entry needs one (a passkey form): otherwise the page stays script-free.
  const scripts = [...new Set(props.scripts ?? [])]
  const html = renderLayout({ title: "Sign In", theme: props.theme, body, css, scripts })
  return scripts.length > 0 ? { status: 200, html, scripts } : { status: 200, html }
}

function renderProvider(
  provider: PageProvider,
  index: number,
  hidden: string,
  email: string | undefined,
): Block | undefined {
  const label = `Sign in with ${provider.name}`
  switch (provider.type) {
    case "oauth":
    case "oidc": {
      const className = `provider-${index}`
      const rules = cssDeclarations({
        "--provider-bg": provider.style?.bg,
        "--provider-text": provider.style?.text,
        "--provider-brand": provider.style?.brandColor,
      })
      // Only the provider's own logo: Auth.js's default CDN logos would be a third-party
      // request on every sign-in page view.
      const logo = safeImageUrl(provider.style?.logo)
      const image = logo === undefined ? "" : `<img src="${escapeHtml(logo)}" alt="">`
      return {
        group: "oauth",
        css: rules === "" ? "" : `.${className}{${rules}}\n`,
        html:
          `<form class="oauth"${action(provider.signinUrl)} method="post">\n${hidden}` +
          `<button type="submit" class="button provider ${className}">${image}<span>${escapeHtml(label)}</span></button>\n</form>\n`,
      }
    }
    case "email": {
      const value = email ? ` value="${escapeHtml(email)}"` : ""
      const id = `field-${index}-email`
      return {
        group: "form",
        css: "",
        html:
          `<form${action(provider.signinUrl)} method="post">\n${hidden}` +
          `<div class="field"><label for="${id}">Email</label>` +
          `<input id="${id}" type="email" name="email"${value} required autocomplete="email" placeholder="email@example.com"></div>\n` +
          `${submit(label)}</form>\n`,
      }
    }
    case "credentials":
      // As in Auth.js, a credentials provider without fields is one the app signs in to from
      // its own form, so it gets no block here.
      if (provider.credentials === undefined) return undefined
      return withPasswordLinks(
        formBlock(provider.callbackUrl, provider.credentials, index, hidden, label),
        provider.password,
      )
    case "webauthn":
      return passkeyBlock(provider, index, hidden, label)
    default:
      return undefined
  }
}

/**
 * A passkey form: its fields (email with `autocomplete="username webauthn"`), run by the page's
 * own passkey script (the passkey feature's), which reads the two URLs from `data-*` attributes.
 * Without JavaScript it cannot work, and says so.
 */
function passkeyBlock(provider: PageProvider, index: number, hidden: string, label: string): Block {
  const inputs = Object.entries(provider.credentials ?? {})
    .map(([name, field], i) => renderField(name, field, `field-${index}-${i}`))
    .join("")
  const options = safeLinkUrl(provider.optionsUrl)
  const callback = safeLinkUrl(provider.callbackUrl)
  const data =
    (options === undefined ? "" : ` data-options="${escapeHtml(options)}"`) +
    (callback === undefined ? "" : ` data-callback="${escapeHtml(callback)}"`) +
    (provider.conditionalUI ? " data-conditional" : "")
  return {
    group: "form",
    css: "",
    html:
      `<form data-passkey${data} method="post">\n${hidden}${inputs}${submit(label)}` +
      `<p class="muted" data-passkey-status role="status" hidden></p>\n` +
      `<noscript><p class="muted">Passkeys need JavaScript.</p></noscript>\n</form>\n`,
  }
}

/** The password form's links to the sign-up and forgot pages. */
function withPasswordLinks(block: Block, password: PageProvider["password"]): Block {
  if (!password) return block
  const signUp = safeLinkUrl(password.signUpUrl)
  const forgot = safeLinkUrl(password.forgotUrl)
  const links = [
    forgot && `<a href="${escapeHtml(forgot)}">Forgot your password?</a>`,
    signUp && `<a href="${escapeHtml(signUp)}">Create an account</a>`,
  ].filter(Boolean)
  if (links.length === 0) return block
  return { ...block, html: `${block.html}<p class="center">${links.join(" · ")}</p>\n` }
}

const UNVERIFIED_NOTICE =
  "Confirm your email address first: open the link we mailed you, or get a new one below."

/** "Send the link again" for an account whose address is not confirmed yet. */
function resendBlock(url: string, hidden: string, email: string | undefined): Block {
  const value = email ? ` value="${escapeHtml(email)}"` : ""
  return {
    group: "form",
    css: "",
    html:
      `<form${action(url)} method="post" data-latchkey-resend>\n${hidden}` +
      `<p>${escapeHtml(UNVERIFIED_NOTICE)}</p>\n` +
      `<div class="field"><label for="field-resend-email">Email</label>` +
      `<input id="field-resend-email" type="email" name="email"${value} required autocomplete="email"></div>\n` +
      `${submit("Send the link again")}</form>\n`,
  }
}

function formBlock(
  url: string,
  fields: Record<string, CredentialField>,
  index: number,
  hidden: string,
  label: string,
): Block {
  const inputs = Object.entries(fields)
    .map(([name, field], i) => renderField(name, field, `field-${index}-${i}`))
    .join("")
  return {
    group: "form",
    css: "",
    html: `<form${action(url)} method="post">\n${hidden}${inputs}${submit(label)}</form>\n`,
  }
}

const inputTypes = new Set([
  "text",
  "password",
  "email",
  "tel",
  "url",
  "number",
  "search",
  "date",
  "time",
  "datetime-local",
  "month",
  "week",
])
const inputModes = new Set(["none", "text", "decimal", "numeric", "tel", "search", "email", "url"])
const textAttributes = new Set(["placeholder", "autocomplete", "pattern"])
const lengthAttributes = new Set(["minlength", "maxlength"])

function renderField(name: string, field: CredentialField, id: string): string {
  const type =
    typeof field.type === "string" && inputTypes.has(field.type.toLowerCase())
      ? field.type.toLowerCase()
      : "text"
  const label = typeof field.label === "string" && field.label !== "" ? field.label : name
  return (
    `<div class="field"><label for="${id}">${escapeHtml(label)}</label>` +
    `<input id="${id}" type="${type}" name="${escapeHtml(name)}"${safeAttributes(field)}></div>\n`
  )
}

/**
 * Auth.js spreads every credential property onto the `<input>`; here only attributes that
 * shape input survive, so config can never add `on*` handlers, `style`, `form` or `formaction`.
 */
function safeAttributes(field: CredentialField): string {
  const seen = new Set<string>()
  let out = ""
  for (const [key, value] of Object.entries(field)) {
    // Accept React-style `autoComplete` / `minLength`, which Auth.js configs often use.
    const attr = key.toLowerCase()
    if (seen.has(attr)) continue
    seen.add(attr)
    if (textAttributes.has(attr) && (typeof value === "string" || typeof value === "number")) {
      out += ` ${attr}="${escapeHtml(String(value))}"`
    } else if (lengthAttributes.has(attr) && /^\d{1,6}$/.test(String(value))) {
      out += ` ${attr}="${String(value)}"`
    } else if (attr === "inputmode" && typeof value === "string" && inputModes.has(value)) {
      out += ` inputmode="${value}"`
    } else if (attr === "required" && (value === true || value === "" || value === "required")) {
      out += " required"
    }
  }
  return out
}

function submit(label: string): string {
  return `<button type="submit" class="button">${escapeHtml(label)}</button>\n`
}
