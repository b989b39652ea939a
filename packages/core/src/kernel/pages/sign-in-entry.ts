/**
 * One provider's entry on the built-in sign-in page, as its feature renders it: the kernel's
 * page lays out the entries, and each feature brings the markup of its own (OAuth buttons, the
 * email form, a credentials or password form, the passkey form). An app whose features have
 * no form therefore carries no form code.
 */
import { escapeHtml } from "./escape.js"

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
  /** Renders the provider's entry: set by its feature (`Feature.signInPage`). */
  render?: SignInEntry
}

export interface SignInBlock {
  html: string
  css: string
  /** OAuth buttons stack into one group; every form-based provider is a group of its own. */
  group: "oauth" | "form"
  /** Shown above every other entry: a form that answers the page's banner. */
  first?: true
}

/** What an entry is rendered from: its provider, its place on the page, the page's query. */
export interface EntryInput {
  provider: PageProvider
  /** The provider's position: ids and class names derived from it stay unique on the page. */
  index: number
  /** The hidden CSRF token and callback URL fields every form posts. */
  hidden: string
  /** The address to prefill (`?email=`). */
  email?: string | undefined
  /** The page's `?error=` and `?code=`. */
  error?: string | undefined
  code?: string | undefined
}

/** A feature's renderer of its providers' entries: none, one block, or several. */
export type SignInEntry = (input: EntryInput) => SignInBlock | readonly SignInBlock[] | undefined

/** The label of a provider's button: "Sign in with GitHub". */
export function signInLabel(provider: Pick<PageProvider, "name">): string {
  return `Sign in with ${provider.name}`
}

export function submitButton(label: string): string {
  return `<button type="submit" class="button">${escapeHtml(label)}</button>\n`
}
