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
import { flushDeferred } from "@latchkey/core"
import type { InvitationMail } from "@latchkey/core/organizations"
import type { SendVerificationRequestParams } from "@latchkey/core/providers/email"
import type { SendPasswordMailParams } from "@latchkey/core/providers/password"
import { database } from "./db"

/** Mails kept; older ones are dropped when a new one arrives. */
const KEEP = 100

export interface DevMail {
  id: number
  to: string
  /** `sign-in` (a magic link) or the password mail's purpose (`verify`, `reset`, …). */
  purpose: string
  subject: string
  /** `null` for a notice without a link. */
  url: string | null
  expires: string | null
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

/** The email provider's `sendVerificationRequest`: store the mail instead of sending it. */
export async function deliverToDevMailbox(params: SendVerificationRequestParams): Promise<void> {
  const { identifier, url, expires } = params
  await store({
    to: identifier,
    purpose: "sign-in",
    subject: `Sign in to ${new URL(url).host}`,
    url,
    expires,
  })
}

/** The password provider's `sendPasswordMail`: store the mail (the core's subject) instead. */
export async function deliverPasswordMailToDevMailbox(
  params: SendPasswordMailParams,
): Promise<void> {
  const { identifier, purpose, message, url, expires } = params
  await store({ to: identifier, purpose, subject: message.subject, url, expires })
}

/** The organizations feature's `sendInvitation`: store the invitation mail instead. */
export async function deliverInvitationToDevMailbox(mail: InvitationMail): Promise<void> {
  await store({
    to: mail.to,
    purpose: "invitation",
    subject: `Join ${mail.organization.name} as ${mail.role}`,
    url: mail.url,
    expires: mail.expires,
  })
}

async function store(mail: {
  to: string
  purpose: string
  subject: string
  url: string | undefined
  expires: Date | undefined
}): Promise<void> {
  const db = await database()
  await db.transaction(async (tx) => {
    await tx.query(
      "INSERT INTO dev_mailbox (recipient, purpose, subject, url, expires) VALUES ($1, $2, $3, $4, $5)",
      [mail.to, mail.purpose, mail.subject, mail.url ?? null, mail.expires?.toISOString() ?? null],
    )
    await tx.query(
      "DELETE FROM dev_mailbox WHERE id NOT IN (SELECT id FROM dev_mailbox ORDER BY id DESC LIMIT $1)",
      [KEEP],
    )
  })
  // The link itself stays out of the log: it signs in (or resets) whoever opens it.
  console.log(`[dev mailbox] ${mail.purpose} mail for ${mail.to}: open /dev/mailbox/`)
}

/** The stored mails, newest first. */
export async function listDevMailbox(): Promise<DevMail[]> {
  // Password mails leave after their request's answer: wait for the ones still on their way, so
  // a mail is listed as soon as the page that asked for it has answered.
  await flushDeferred()
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
  return rows.map((r) => ({
    id: r.id,
    to: r.recipient,
    purpose: r.purpose ?? "sign-in",
    subject: r.subject,
    url: r.url,
    expires: r.expires === null ? null : new Date(r.expires).toISOString(),
    sentAt: new Date(r.sent_at).toISOString(),
  }))
}
