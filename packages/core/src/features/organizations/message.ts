/**
 * The default invitation mail: subject, plain text and HTML, from what `sendInvitation` gets.
 * A pure function, as the sign-in and password mails' templates, so an app's `sendInvitation`
 * hands it to any sender (SMTP, an HTTP mail API) and the output is tested without one.
 */

import { mailBody, mailButton, mailParagraph } from "../../kernel/mail/html.js"
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
  // Every name here was typed by a user: the mail's parts escape them, so a name cannot add
  // markup or a link.
  const html = mailBody(escapeHtml(subject), [
    mailParagraph(invites),
    mailButton("Open the invitation", url),
    after.map(mailParagraph).join("\n    "),
  ])
  return { subject, text, html }
}
