/**
 * The HTML of Latchkey's own mails (password mails, invitations): one card, a title, rows of
 * paragraphs and at most one button. Every text is escaped here; colours reach `style` only
 * when they are valid CSS colours.
 */
import { escapeHtml, safeCssColour } from "../pages/escape.js"
import type { Theme } from "../types/pages.js"

const FONT = "font-family: Helvetica, Arial, sans-serif"

/** One paragraph row of `text`. */
export function mailParagraph(text: string): string {
  return `<tr><td align="center" style="padding: 0 10px 10px; font-size: 16px; line-height: 22px; ${FONT}; color: #444;">${escapeHtml(text)}</td></tr>`
}

/** The button row: `label`, linking to `url`, in the theme's colours. */
export function mailButton(label: string, url: string, theme: Theme = {}): string {
  const brand = escapeHtml(safeCssColour(theme.brandColor) ?? "#346df1")
  const buttonText = escapeHtml(safeCssColour(theme.buttonText) ?? "#fff")
  return `<tr><td align="center" style="padding: 20px 0;"><a href="${escapeHtml(url)}" target="_blank" style="font-size: 18px; ${FONT}; color: ${buttonText}; background: ${brand}; text-decoration: none; border-radius: 5px; padding: 10px 20px; display: inline-block; font-weight: bold;">${escapeHtml(label)}</a></td></tr>`
}

/** The whole mail: `titleHtml` (already escaped) over `rows`, one per line. */
export function mailBody(titleHtml: string, rows: readonly string[]): string {
  return `<body style="background: #f9f9f9;">
  <table width="100%" border="0" cellspacing="20" cellpadding="0" style="background: #fff; max-width: 600px; margin: auto; border-radius: 10px;">
    <tr><td align="center" style="padding: 10px 0; font-size: 22px; ${FONT}; color: #444;">${titleHtml}</td></tr>
    ${rows.join("\n    ")}
  </table>
</body>
`
}
