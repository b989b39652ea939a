/**
 * The default sign-in mail: subject, plain text and HTML. Pure functions, so the exact output
 * is tested without a mail server and a custom sender can reuse them.
 */

import { escapeHtml, safeCssColour } from "../../kernel/pages/escape.js"
import type { Theme } from "../../kernel/types/pages.js"

export interface SignInMessage {
  subject: string
  text: string
  html: string
}

const DEFAULT_BRAND = "#346df1"
const DEFAULT_BUTTON_TEXT = "#fff"

/** Subject, text and HTML of the mail carrying `url`. */
export function signInMessage(params: { url: string; theme?: Theme }): SignInMessage {
  const { url } = params
  const host = new URL(url).host
  return {
    subject: `Sign in to ${host}`,
    text: signInText(url, host),
    html: signInHtml(url, host, params.theme ?? {}),
  }
}

function signInText(url: string, host: string): string {
  return `Sign in to ${host}\n\n${url}\n\nIf you did not request this email you can safely ignore it.\n`
}

function signInHtml(url: string, host: string, theme: Theme): string {
  // A zero-width space before each dot stops mail clients from turning the host into a link
  // (as Auth.js does), so the only link in the mail is the button.
  const displayHost = escapeHtml(host).replace(/\./g, "&#8203;.")
  // Colours go into `style` attributes: only validated CSS colours get there.
  const brand = safeCssColour(theme.brandColor) ?? DEFAULT_BRAND
  const buttonText = safeCssColour(theme.buttonText) ?? DEFAULT_BUTTON_TEXT
  const href = escapeHtml(url)
  const font = "font-family: Helvetica, Arial, sans-serif"
  return `<body style="background: #f9f9f9;">
  <table width="100%" border="0" cellspacing="20" cellpadding="0"
    style="background: #fff; max-width: 600px; margin: auto; border-radius: 10px;">
    <tr>
      <td align="center"
        style="padding: 10px 0px; font-size: 22px; ${font}; color: #444;">
        Sign in to <strong>${displayHost}</strong>
      </td>
    </tr>
    <tr>
      <td align="center" style="padding: 20px 0;">
        <table border="0" cellspacing="0" cellpadding="0">
          <tr>
            <td align="center" style="border-radius: 5px;" bgcolor="${escapeHtml(brand)}"><a href="${href}"
                target="_blank"
                style="font-size: 18px; ${font}; color: ${escapeHtml(buttonText)}; text-decoration: none; border-radius: 5px; padding: 10px 20px; border: 1px solid ${escapeHtml(brand)}; display: inline-block; font-weight: bold;">Sign
                in</a></td>
          </tr>
        </table>
      </td>
    </tr>
    <tr>
      <td align="center"
        style="padding: 0px 0px 10px 0px; font-size: 16px; line-height: 22px; ${font}; color: #444;">
        If you did not request this email you can safely ignore it.
      </td>
    </tr>
  </table>
</body>
`
}
