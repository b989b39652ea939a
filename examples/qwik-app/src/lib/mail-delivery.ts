/**
 * Where the demo's mails go: an SMTP server (`SMTP_URL`), the dev mailbox, or nowhere (then the
 * password provider runs without address verification). Pages use it to say where to look.
 */
import { devMailboxEnabled } from "./dev-mailbox"

export type MailDelivery = "smtp" | "mailbox" | "none"

export function mailDelivery(): MailDelivery {
  if (process.env.SMTP_URL) return "smtp"
  return devMailboxEnabled() ? "mailbox" : "none"
}
