/**
 * A real SMTP server (`smtp-server`) on 127.0.0.1 that keeps what it receives, for sign-in mails
 * sent by the Nodemailer provider's default sender; `nextLink` parses the mail with postal-mime
 * and returns its sign-in link.
 */
import type { AddressInfo } from "node:net"
import PostalMime from "postal-mime"
import { SMTPServer } from "smtp-server"

export interface SmtpInbox {
  url: string
  /** The sign-in link of the oldest mail to `to` not read yet. */
  nextLink(to: string): Promise<string>
  /** The subject and text of the oldest mail to `to` not read yet. */
  nextMail(to: string): Promise<{ subject: string; text: string }>
  close(): Promise<void>
}

export async function startSmtpInbox(): Promise<SmtpInbox> {
  const mails: { to: string[]; raw: Buffer }[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on("data", (chunk: Buffer) => chunks.push(chunk))
      stream.on("end", () => {
        mails.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks),
        })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.server.address() as AddressInfo
  const inbox: SmtpInbox = {
    url: `smtp://127.0.0.1:${port}`,
    async nextLink(to) {
      const { text } = await inbox.nextMail(to)
      const link = /https?:\/\/\S+\/callback\/\S+/.exec(text)?.[0]
      if (!link) throw new Error(`no sign-in link in the mail to ${to}:\n${text}`)
      return link
    },
    async nextMail(to) {
      const at = mails.findIndex((mail) => mail.to.includes(to))
      if (at < 0) throw new Error(`no mail to ${to}`)
      const [mail] = mails.splice(at, 1)
      const { subject = "", text = "" } = await PostalMime.parse(mail!.raw)
      return { subject, text }
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
  return inbox
}
