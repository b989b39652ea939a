/**
 * The dev mailbox: where the demo "sends" its mails (the email provider's magic links, the
 * password provider's verification, reset and email-change mails and notices) when no SMTP
 * server is configured. Nothing leaves the machine; each mail becomes a row of `dev_mailbox` in
 * the demo's PGlite database (so it survives a restart), listed at `/dev/mailbox/`.
 *
 * It exists for the demo only: it is on unless `LATCHKEY_DEMO_MAILBOX=off`, and the page answers
 * loopback clients only, even when the demo listens on another interface. A real app sends the
 * mail (`Nodemailer({ server, from })`) and has no such page: anyone who can read it can sign in
 * as anyone.
 */
import { createDevMailbox, type DevMail, type DevMailStore, type NewDevMail } from "@latchkey/qwik"
import { database } from "./db"

export type { DevMail } from "@latchkey/qwik"

/** Mails kept; older ones are dropped when a new one arrives. */
const KEEP = 100

export function devMailboxEnabled(): boolean {
  return process.env.LATCHKEY_DEMO_MAILBOX !== "off"
}

/** The binding's dev mailbox (what `npx latchkey init` writes uses), over the demo's table. */
const tableStore: DevMailStore = {
  async add(mail: NewDevMail) {
    const db = await database()
    await db.transaction(async (tx) => {
      await tx.query(
        "INSERT INTO dev_mailbox (recipient, purpose, subject, url, expires) VALUES ($1, $2, $3, $4, $5)",
        [mail.to, mail.purpose, mail.subject, mail.url, mail.expires],
      )
      await tx.query(
        "DELETE FROM dev_mailbox WHERE id NOT IN (SELECT id FROM dev_mailbox ORDER BY id DESC LIMIT $1)",
        [KEEP],
      )
    })
  },
  async list() {
    const db = await database()
    const { rows } = await db.query<{
      id: number
      recipient: string
      purpose: string | null
      subject: string
      url: string | null
      expires: Date | null
      sent_at: Date
    }>(
      "SELECT id, recipient, purpose, subject, url, expires, sent_at FROM dev_mailbox ORDER BY id DESC LIMIT $1",
      [KEEP],
    )
    return rows.map(
      (r): DevMail => ({
        id: r.id,
        to: r.recipient,
        purpose: r.purpose ?? "sign-in",
        subject: r.subject,
        url: r.url,
        expires: r.expires === null ? null : new Date(r.expires).toISOString(),
        sentAt: new Date(r.sent_at).toISOString(),
      }),
    )
  },
}

const mailbox = createDevMailbox(tableStore)

/** The email provider's `sendVerificationRequest`: store the mail instead of sending it. */
export const deliverToDevMailbox = mailbox.sendVerificationRequest

/** The password provider's `sendPasswordMail`: store the mail (the core's subject) instead. */
export const deliverPasswordMailToDevMailbox = mailbox.sendPasswordMail

/** The organizations feature's `sendInvitation`: store the invitation mail instead. */
export const deliverInvitationToDevMailbox = mailbox.sendInvitation

/** The stored mails, newest first (once the mails still on their way have arrived). */
export const listDevMailbox = mailbox.list
