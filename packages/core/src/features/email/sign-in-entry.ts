/** An email provider's form on the built-in sign-in page: one address, one button. */
import { escapeHtml } from "../../kernel/pages/escape.js"
import { formAction } from "../../kernel/pages/layout.js"
import { type SignInEntry, signInLabel, submitButton } from "../../kernel/pages/sign-in-entry.js"

export const emailEntry: SignInEntry = ({ provider, index, hidden, email }) => {
  const value = email ? ` value="${escapeHtml(email)}"` : ""
  const id = `field-${index}-email`
  return {
    group: "form",
    css: "",
    html:
      `<form${formAction(provider.signinUrl)} method="post">\n${hidden}` +
      `<div class="field"><label for="${id}">Email</label>` +
      `<input id="${id}" type="email" name="email"${value} required autocomplete="email" placeholder="email@example.com"></div>\n` +
      `${submitButton(signInLabel(provider))}</form>\n`,
  }
}
