/** An OAuth/OIDC provider's button on the built-in sign-in page, in its own colours. */
import { escapeHtml, safeImageUrl } from "../../kernel/pages/escape.js"
import { cssDeclarations, formAction } from "../../kernel/pages/layout.js"
import { type SignInEntry, signInLabel } from "../../kernel/pages/sign-in-entry.js"

export const oauthEntry: SignInEntry = ({ provider, index, hidden }) => {
  const className = `provider-${index}`
  const rules = cssDeclarations({
    "--provider-bg": provider.style?.bg,
    "--provider-text": provider.style?.text,
    "--provider-brand": provider.style?.brandColor,
  })
  // Only the provider's own logo: Auth.js's default CDN logos would be a third-party request
  // on every sign-in page view.
  const logo = safeImageUrl(provider.style?.logo)
  const image = logo === undefined ? "" : `<img src="${escapeHtml(logo)}" alt="">`
  return {
    group: "oauth",
    css: rules === "" ? "" : `.${className}{${rules}}\n`,
    html:
      `<form class="oauth"${formAction(provider.signinUrl)} method="post">\n${hidden}` +
      `<button type="submit" class="button provider ${className}">${image}<span>${escapeHtml(signInLabel(provider))}</span></button>\n</form>\n`,
  }
}
