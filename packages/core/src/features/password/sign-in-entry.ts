/**
 * The `Password` provider's entry on the built-in sign-in page: the credentials form with links
 * to the sign-up and forgot pages, and, after the right password of an unconfirmed account
 * (`code=email-unverified`, shown only to someone who knows the password), a form that mails
 * the confirmation link again, above every other entry.
 */
import { escapeHtml, safeLinkUrl } from "../../kernel/pages/escape.js"
import { fieldsForm } from "../../kernel/pages/form-fields.js"
import { formAction } from "../../kernel/pages/layout.js"
import {
  type SignInBlock,
  type SignInEntry,
  signInLabel,
  submitButton,
} from "../../kernel/pages/sign-in-entry.js"

/** The password pages' URLs (`{basePath}/password/*`). */
export interface PasswordLinks {
  signUpUrl: string
  forgotUrl: string
  resendUrl: string
}

const UNVERIFIED_NOTICE =
  "Confirm your email address first: open the link we mailed you, or get a new one below."

export function passwordEntry(links: PasswordLinks): SignInEntry {
  return ({ provider, index, hidden, email, error, code }) => {
    const fields = provider.credentials
    const label = signInLabel(provider)
    const form =
      fields && withLinks(fieldsForm(provider.callbackUrl, fields, index, hidden, label), links)
    const blocks = form ? [form] : []
    if (error === "CredentialsSignin" && code === "email-unverified") {
      blocks.unshift(resendBlock(links.resendUrl, hidden, email))
    }
    return blocks
  }
}

/** The form's links to the sign-up and forgot pages. */
function withLinks(block: SignInBlock, links: PasswordLinks): SignInBlock {
  const signUp = safeLinkUrl(links.signUpUrl)
  const forgot = safeLinkUrl(links.forgotUrl)
  const anchors = [
    forgot && `<a href="${escapeHtml(forgot)}">Forgot your password?</a>`,
    signUp && `<a href="${escapeHtml(signUp)}">Create an account</a>`,
  ].filter(Boolean)
  if (anchors.length === 0) return block
  return { ...block, html: `${block.html}<p class="center">${anchors.join(" · ")}</p>\n` }
}

/** "Send the link again" for an account whose address is not confirmed yet. */
function resendBlock(url: string, hidden: string, email: string | undefined): SignInBlock {
  const value = email ? ` value="${escapeHtml(email)}"` : ""
  return {
    group: "form",
    css: "",
    first: true,
    html:
      `<form${formAction(url)} method="post" data-latchkey-resend>\n${hidden}` +
      `<p>${escapeHtml(UNVERIFIED_NOTICE)}</p>\n` +
      `<div class="field"><label for="field-resend-email">Email</label>` +
      `<input id="field-resend-email" type="email" name="email"${value} required autocomplete="email"></div>\n` +
      `${submitButton("Send the link again")}</form>\n`,
  }
}
