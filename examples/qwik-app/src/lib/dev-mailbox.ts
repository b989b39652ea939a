/**
 * The dev mailbox: where the demo's email provider "sends" its magic links. Nothing leaves the
 * machine; each mail becomes a row of `dev_mailbox` in the demo's PGlite database (so it survives
 * a restart), listed at `/dev/mailbox/`.
 *
 * It exists for the demo only: it is on unless `LATCHKEY_DEMO_MAILBOX=off`, and the page answers
 * loopback clients only, even when the demo listens on another interface. A real app sends the
 * mail (`Nodemailer({ server, from })`) and has no such page: anyone who can read it can sign in
 * as anyone.
 */
import type { SendVerificationRequestParams } from "@latchkey/core/providers/email"
import { database } from "./db"

/** Mails kept; older ones are dropped when a new one arrives. */
const KEEP = 100

export interface DevMail {
  id: number
  to: string
  subject: string
  url: string
  expires: string
  sentAt: string
}

export function devMailboxEnabled(): boolean {
  return process.env.LATCHKEY_DEMO_MAILBOX !== "off"
}

/** Whether a client address is this machine (IPv4, IPv6, or IPv4-mapped IPv6). */
export function isLoopback(ip: string | undefined): boolean {
  if (!ip) return false
  const v4 = ip.startsWith("::ffff:") ? ip.slice(7) : ip
  return v4.startsWith("127.") || ip === "::1"
}

/** The provider's `sendVerificationRequest`: store the mail instead of sending it. */
export async function deliverToDevMailbox(params: SendVerificationRequestParams): Promise<void> {
  const { identifier, url, expires } = params
  const db = await database()
  await db.transaction(async (tx) => {
    await tx.query(
      "INSERT INTO dev_mailbox (recipient, subject, url, expires) VALUES ($1, $2, $3, $4)",
      [identifier, `Sign in to ${new URL(url).host}`, url, expires.toISOString()],
    )
    await tx.query(
      "DELETE FROM dev_mailbox WHERE id NOT IN (SELECT id FROM dev_mailbox ORDER BY id DESC LIMIT $1)",
      [KEEP],
    )
  })
  // The link itself stays out of the log: it signs in whoever opens it.
  console.log(`[dev mailbox] sign-in link for ${identifier}: open /dev/mailbox/`)
}

/** The stored mails, newest first. */
export async function listDevMailbox(): Promise<DevMail[]> {
  const db = await database()
  const { rows } = await db.query<{
    id: number
    recipient: string
    subject: string
    url: string
    expires: Date
    sent_at: Date
  }>(
    "SELECT id, recipient, subject, url, expires, sent_at FROM dev_mailbox ORDER BY id DESC LIMIT $1",
    [KEEP],
  )
  return rows.map((r) => ({
    id: r.id,
    to: r.recipient,
    subject: r.subject,
    url: r.url,
    expires: new Date(r.expires).toISOString(),
    sentAt: new Date(r.sent_at).toISOString(),
  }))
}
