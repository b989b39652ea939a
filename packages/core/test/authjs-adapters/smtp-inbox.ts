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

/** One mail as the server received it: the envelope's recipients and the raw message. */
export interface ReceivedMail {
  to: string[]
  raw: Buffer
}

/** A real SMTP server on 127.0.0.1 (a free port) that keeps every mail it receives, in order. */
export async function startSmtpServer(): Promise<{
  url: string
  received: ReceivedMail[]
  close(): Promise<void>
}> {
  const received: ReceivedMail[] = []
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on("data", (chunk: Buffer) => chunks.push(chunk))
      stream.on("end", () => {
        received.push({
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks),
        })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.server.address() as AddressInfo
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

export async function startSmtpInbox(): Promise<SmtpInbox> {
  const server = await startSmtpServer()
  const mails = server.received
  const inbox: SmtpInbox = {
    url: server.url,
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
    close: server.close,
  }
  return inbox
}
