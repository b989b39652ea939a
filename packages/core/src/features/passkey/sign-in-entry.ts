/**
 * A passkey form on the built-in sign-in page: its fields (email with
 * `autocomplete="username webauthn"`), run by the passkey script (`script.ts`), which reads the
 * two URLs from `data-*` attributes. Without JavaScript it cannot work, and says so.
 */
import { escapeHtml, safeLinkUrl } from "../../kernel/pages/escape.js"
import { renderFields } from "../../kernel/pages/form-fields.js"
import { type SignInEntry, signInLabel, submitButton } from "../../kernel/pages/sign-in-entry.js"

export const passkeyEntry: SignInEntry = ({ provider, index, hidden }) => {
  const inputs = renderFields(provider.credentials ?? {}, index)
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
      `<form data-passkey${data} method="post">\n${hidden}${inputs}${submitButton(signInLabel(provider))}` +
      `<p class="muted" data-passkey-status role="status" hidden></p>\n` +
      `<noscript><p class="muted">Passkeys need JavaScript.</p></noscript>\n</form>\n`,
  }
}
