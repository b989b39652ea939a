import { escapeHtml } from "./escape.js"
import { hiddenFields, type PageResponse, type PageTheme, renderLayout } from "./layout.js"
import { signInErrorMessage } from "./messages.js"
import type { EntryInput, PageProvider, SignInBlock } from "./sign-in-entry.js"

export type { PageProvider }

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

const REAUTH_NOTICE =
  "Sign in again to continue: this change needs a recent sign-in, to be sure it is you."

export function renderSignInPage(props: SignInPageProps): PageResponse {
  // What every entry is rendered with; only the provider and its place differ.
  const page = {
    hidden: hiddenFields({ csrfToken: props.csrfToken, callbackUrl: props.callbackUrl }),
    email: props.email,
    error: props.error,
    code: props.code,
  }
  const rendered = props.providers.flatMap((provider, index) =>
    entryBlocks({ ...page, provider, index }),
  )
  // A form that answers the banner (send the confirmation link again) comes before the rest,
  // once however many providers offer the same one.
  const first = new Map(rendered.filter((b) => b.first).map((b) => [b.html, b]))
  const blocks = [...first.values(), ...rendered.filter((b) => !b.first)]

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

/** The blocks the provider's feature renders for it (none without a renderer). */
function entryBlocks(input: EntryInput): readonly SignInBlock[] {
  const blocks = input.provider.render?.(input)
  if (blocks === undefined) return []
  return Array.isArray(blocks) ? blocks : [blocks as SignInBlock]
}
