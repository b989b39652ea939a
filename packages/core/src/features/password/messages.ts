/**
 * The default text of each password mail: one template per purpose, plain text and HTML.
 * Pure functions, so the exact output is tested without a mail server and a custom sender can
 * reuse them.
 */
import { mailBody, mailButton, mailParagraph } from "../../kernel/mail/html.js"
import { escapeHtml } from "../../kernel/pages/escape.js"
import type { Theme } from "../../kernel/types/pages.js"
import type { PasswordMailPurpose, PasswordMessage } from "./config.js"

interface Template {
  subject: (host: string) => string
  lines: string[]
  button?: string
}

const IGNORE = "If you did not ask for this, you can ignore this mail: nothing changes."

const TEMPLATES: Record<PasswordMailPurpose, Template> = {
  verify: {
    subject: (host) => `Confirm your email address for ${host}`,
    lines: [
      "Confirm this address to finish creating your account. The link works once.",
      "If you did not create an account, ignore this mail and do not open the link.",
    ],
    button: "Confirm my address",
  },
  reset: {
    subject: (host) => `Reset your password for ${host}`,
    lines: [
      "Open the link to choose a new password. It works once and signs out every device.",
      IGNORE,
    ],
    button: "Choose a new password",
  },
  "account-exists": {
    subject: (host) => `Someone tried to sign up to ${host} with your address`,
    lines: [
      "An account already exists for this address, so no new one was created.",
      "If it was you, sign in, or choose a new password with the link below. Otherwise, ignore this mail.",
    ],
    button: "Choose a new password",
  },
  "email-change": {
    subject: (host) => `Confirm your new email address for ${host}`,
    lines: [
      "Confirm this address to make it the one your account uses. The link works once.",
      IGNORE,
    ],
    button: "Confirm the new address",
  },
  "email-change-notice": {
    subject: (host) => `Your email address on ${host} is being changed`,
    lines: [
      "Someone signed in to your account asked to move it to another email address. It changes only once the new address is confirmed.",
      "If it was not you, sign in and change your password now.",
    ],
  },
}

/** Subject, text and HTML of the `purpose` mail carrying `url` (if any) for the site at `origin`. */
export function passwordMessage(params: {
  purpose: PasswordMailPurpose
  origin: string
  url: string | undefined
  theme?: Theme
}): PasswordMessage {
  const template = TEMPLATES[params.purpose]
  const host = new URL(params.origin).host
  const subject = template.subject(host)
  const link = params.url !== undefined && template.button ? params.url : undefined
  const text = `${subject}\n\n${template.lines.join("\n\n")}\n${link ? `\n${link}\n` : ""}`
  return { subject, text, html: html(subject, template, link, params.theme ?? {}) }
}

function html(subject: string, template: Template, url: string | undefined, theme: Theme): string {
  // A zero-width space before each dot keeps mail clients from linking the host in the title.
  const title = escapeHtml(subject).replace(/\./g, "&#8203;.")
  const button = url && template.button ? mailButton(template.button, url, theme) : ""
  return mailBody(title, [button, template.lines.map(mailParagraph).join("\n    ")])
}
