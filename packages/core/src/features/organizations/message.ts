/**
 * The default invitation mail: subject, plain text and HTML, from what `sendInvitation` gets.
 * A pure function, as the sign-in and password mails' templates, so an app's `sendInvitation`
 * hands it to any sender (SMTP, an HTTP mail API) and the output is tested without one.
 */

import { escapeHtml } from "../../kernel/pages/escape.js"
import type { InvitationMail } from "./types.js"

export interface InvitationMessage {
  subject: string
  text: string
  html: string
}

/** Subject, text and HTML of the invitation carrying `url`. */
export function invitationMessage(invitation: InvitationMail): InvitationMessage {
  const { organization, inviter, role, url, expires } = invitation
  const subject = `Join ${organization.name} as ${role}`
  const who = inviter.name ?? inviter.email ?? "A member"
  const invites = `${who} invites you to ${organization.name} as ${role}.`
  const after = [
    `The link works once, until ${expires.toUTCString()}. Sign in (or sign up) with this address to accept.`,
    "If you did not expect this invitation you can safely ignore it.",
  ]
  const text = `${subject}\n\n${invites}\n\n${url}\n\n${after.join("\n\n")}\n`
  const font = "font-family: Helvetica, Arial, sans-serif"
  // Every name here was typed by a user: escaped, so a name cannot add markup or a link.
  const paragraph = (line: string) =>
    `<tr><td align="center" style="padding: 0 10px 10px; font-size: 16px; line-height: 22px; ${font}; color: #444;">${escapeHtml(line)}</td></tr>`
  const html = `<body style="background: #f9f9f9;">
  <table width="100%" border="0" cellspacing="20" cellpadding="0" style="background: #fff; max-width: 600px; margin: auto; border-radius: 10px;">
    <tr><td align="center" style="padding: 10px 0; font-size: 22px; ${font}; color: #444;">${escapeHtml(subject)}</td></tr>
    ${paragraph(invites)}
    <tr><td align="center" style="padding: 20px 0;"><a href="${escapeHtml(url)}" target="_blank" style="font-size: 18px; ${font}; color: #fff; background: #346df1; text-decoration: none; border-radius: 5px; padding: 10px 20px; display: inline-block; font-weight: bold;">Open the invitation</a></td></tr>
    ${after.map(paragraph).join("\n    ")}
  </table>
</body>
`
  return { subject, text, html }
}
