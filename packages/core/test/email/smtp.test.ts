/**
 * End to end over real SMTP: `smtp-server` on 127.0.0.1, the Nodemailer provider's default
 * sender, the received mail parsed with postal-mime, its link followed to a sign-in.
 */
import type { AddressInfo } from "node:net"
import PostalMime from "postal-mime"
import { SMTPServer } from "smtp-server"
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest"
import { requestEmailSignIn } from "../../src/features/email/request.js"
import { verifyEmailSignIn } from "../../src/features/email/verify.js"
import { EmailSignInError, RateLimited, Verification } from "../../src/kernel/errors/errors.js"
import { MemoryRateLimitStore } from "../../src/kernel/rate-limit/memory-store.js"
import type { EmailConfig } from "../../src/providers/email.js"
import { Nodemailer, sendWithNodemailer } from "../../src/providers/nodemailer.js"
import { linkParams, MemoryAdapter, ORIGIN, requestParams, SECRET, stampOf } from "./helpers.js"

interface Received {
  from: string
  to: string[]
  raw: Buffer
}

const received: Received[] = []
// Recipients the server answers with "550 No such user".
const refused = new Set(["nobody@example.com"])
let server: SMTPServer
let port: number

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onRcptTo(address, _session, callback) {
      if (refused.has(address.address)) {
        const error = Object.assign(new Error("No such user"), { responseCode: 550 })
        callback(error)
        return
      }
      callback()
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = []
      stream.on("data", (chunk: Buffer) => chunks.push(chunk))
      stream.on("end", () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks),
        })
        callback()
      })
    },
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  port = (server.server.address() as AddressInfo).port
})

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()))
})

afterEach(() => {
  received.length = 0
  vi.useRealTimers()
})

function smtpProvider(overrides: Partial<EmailConfig> = {}): EmailConfig {
  return Nodemailer({
    server: `smtp://127.0.0.1:${port}`,
    from: "Acme <login@acme.test>",
    rateLimit: { store: new MemoryRateLimitStore() },
    ...overrides,
  })
}

const isCallback = (u: string) => u.includes("/auth/callback/")

/** The callback URLs written out in a plain-text part. */
function textLinks(text: string): string[] {
  return [...text.matchAll(/https?:\/\/\S+/g)].map((m) => m[0]).filter(isCallback)
}

/** The callback URLs in the `href`s of an HTML part, entity-decoded as a browser would. */
function htmlLinks(html: string): string[] {
  return [...html.matchAll(/href="([^"]+)"/g)]
    .map((m) =>
      m[1]!
        .replace(/&quot;/g, '"')
        .replace(/&#39;/g, "'")
        .replace(/&lt;/g, "<"),
    )
    .map((u) => u.replace(/&gt;/g, ">").replace(/&amp;/g, "&"))
    .filter(isCallback)
}

async function requestAndReceive(provider: EmailConfig, adapter = MemoryAdapter(), overrides = {}) {
  const result = await requestEmailSignIn(requestParams(provider, adapter, overrides))
  expect(result).toMatchObject({ kind: "verify-request", status: "sent" })
  expect(received).toHaveLength(1)
  const mail = await PostalMime.parse(received[0]!.raw)
  return { adapter, mail, envelope: received[0]! }
}

describe("Nodemailer over real SMTP", () => {
  it("sends a text + HTML mail whose link signs in once", async () => {
    const provider = smtpProvider()
    const { adapter, mail, envelope } = await requestAndReceive(provider)

    expect(envelope.to).toEqual(["ann@example.com"])
    expect(envelope.from).toBe("login@acme.test")
    expect(mail.subject).toBe("Sign in to app.example.com")
    expect(mail.from).toMatchObject({ address: "login@acme.test", name: "Acme" })
    expect(mail.to).toEqual([expect.objectContaining({ address: "ann@example.com" })])

    const inText = textLinks(mail.text ?? "")
    const inHtml = htmlLinks(mail.html ?? "")
    expect(inText).toHaveLength(1)
    expect(inHtml).toHaveLength(1)
    expect(inHtml[0]).toBe(inText[0])
    // The host is broken with zero-width spaces in the HTML, so clients do not link it.
    expect(mail.html).toContain("app&#8203;.example&#8203;.com")
    expect(mail.html).toContain('bgcolor="#346df1"')

    const link = linkParams(inText[0]!)
    expect(link.email).toBe("ann@example.com")
    expect(link.callbackUrl).toBe(`${ORIGIN}/dashboard`)
    const result = await verifyEmailSignIn({ stampOf, provider, adapter, secret: SECRET, ...link })
    expect(result).toMatchObject({ isNewUser: true, user: { email: "ann@example.com" } })

    // Second use of the same link.
    await expect(
      verifyEmailSignIn({ stampOf, provider, adapter, secret: SECRET, ...link }),
    ).rejects.toBeInstanceOf(Verification)
  })

  it("escapes the HTML and uses a validated brand colour", async () => {
    const provider = smtpProvider()
    const { mail } = await requestAndReceive(provider, MemoryAdapter(), {
      callbackUrl: `${ORIGIN}/x?a="><script>alert(1)</script>`,
      theme: { brandColor: "#123456", buttonText: "red;background:url(x)" },
    })
    expect(mail.html).not.toContain("<script>")
    expect(mail.html).not.toContain("url(x)")
    expect(mail.html).toContain('bgcolor="#123456"')
    expect(mail.html).toContain("color: #fff")
    const [href] = htmlLinks(mail.html ?? "")
    expect(linkParams(href!).callbackUrl).toBe(`${ORIGIN}/x?a="><script>alert(1)</script>`)
  })

  it("refuses an expired link", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    const provider = smtpProvider()
    const { adapter, mail } = await requestAndReceive(provider)
    vi.advanceTimersByTime(11 * 60 * 1000)
    const link = linkParams(textLinks(mail.text ?? "")[0]!)
    await expect(
      verifyEmailSignIn({ stampOf, provider, adapter, secret: SECRET, ...link }),
    ).rejects.toBeInstanceOf(Verification)
  })

  it("refuses a tampered token and a different email", async () => {
    const provider = smtpProvider()
    const { adapter, mail } = await requestAndReceive(provider)
    const link = linkParams(textLinks(mail.text ?? "")[0]!)
    const tampered = `${link.token.slice(0, -1)}${link.token.endsWith("A") ? "B" : "A"}`
    await expect(
      verifyEmailSignIn({ stampOf, provider, adapter, secret: SECRET, ...link, token: tampered }),
    ).rejects.toBeInstanceOf(Verification)
    await expect(
      verifyEmailSignIn({
        stampOf,
        provider,
        adapter,
        secret: SECRET,
        ...link,
        email: "eve@example.com",
      }),
    ).rejects.toBeInstanceOf(Verification)
    // Neither attempt spent the real link.
    await expect(
      verifyEmailSignIn({ stampOf, provider, adapter, secret: SECRET, ...link }),
    ).resolves.toBeDefined()
  })

  it("the default sender throws EmailSignInError when the server rejects the recipient", async () => {
    const provider = smtpProvider()
    const failure = sendWithNodemailer({
      identifier: "nobody@example.com",
      url: `${ORIGIN}/auth/callback/nodemailer?token=t&email=nobody%40example.com`,
      expires: new Date(Date.now() + 600_000),
      provider,
      token: "t",
      theme: {},
      request: new Request(ORIGIN),
    })
    await expect(failure).rejects.toBeInstanceOf(EmailSignInError)
    await expect(failure).rejects.toMatchObject({ details: { reason: "recipient-rejected" } })
    expect(received).toHaveLength(0)
  })

  it("a rejected recipient still gets the verify-request answer (no enumeration)", async () => {
    const error = vi.fn()
    const result = await requestEmailSignIn(
      requestParams(smtpProvider(), MemoryAdapter(), {
        email: "nobody@example.com",
        logger: { error, debug: vi.fn() },
      }),
    )
    expect(result).toMatchObject({ kind: "verify-request", status: "recipient-rejected" })
    expect(error).toHaveBeenCalledWith(expect.any(EmailSignInError))
  })

  it("an unreachable server is an EmailSignInError (transport)", async () => {
    // Port 1 on localhost: nothing listens, the connection is refused at once.
    const provider = smtpProvider({ server: "smtp://127.0.0.1:1" })
    const failure = requestEmailSignIn(requestParams(provider, MemoryAdapter()))
    await expect(failure).rejects.toBeInstanceOf(EmailSignInError)
    await expect(failure).rejects.toMatchObject({ details: { reason: "transport" } })
  })

  it("counts the per-address limit per mailbox: +tags share one counter, mail goes to the address given", async () => {
    const provider = smtpProvider()
    const adapter = MemoryAdapter()
    const statuses = []
    for (let i = 0; i < 12; i++) {
      const r = await requestEmailSignIn(
        requestParams(provider, adapter, { email: `carol+${i}@example.com`, ip: `192.0.2.${i}` }),
      )
      statuses.push(r.kind === "verify-request" ? r.status : r.kind)
    }
    expect(statuses).toEqual([...Array(5).fill("sent"), ...Array(7).fill("address-rate-limited")])
    expect(received.map((m) => m.to)).toEqual(
      [0, 1, 2, 3, 4].map((i) => [`carol+${i}@example.com`]),
    )
    // Case and the untagged spelling are the same mailbox too; another mailbox is not.
    const plain = await requestEmailSignIn(
      requestParams(provider, adapter, { email: "Carol@Example.com", ip: "192.0.2.99" }),
    )
    expect(plain).toMatchObject({ status: "address-rate-limited" })
    const dave = await requestEmailSignIn(
      requestParams(provider, adapter, { email: "dave+1@example.com", ip: "192.0.2.98" }),
    )
    expect(dave).toMatchObject({ status: "sent" })
  })

  it("rate-limits per address (silently) and per IP (RateLimited)", async () => {
    const provider = smtpProvider({
      rateLimit: {
        store: new MemoryRateLimitStore(),
        perAddress: { limit: 2, windowMs: 60_000 },
        perIp: { limit: 4, windowMs: 60_000 },
      },
    })
    const adapter = MemoryAdapter()
    const statuses = []
    for (let i = 0; i < 3; i++) {
      const r = await requestEmailSignIn(requestParams(provider, adapter, { ip: `192.0.2.${i}` }))
      statuses.push(r.kind === "verify-request" ? r.status : r.kind)
    }
    expect(statuses).toEqual(["sent", "sent", "address-rate-limited"])
    expect(received).toHaveLength(2)

    for (let i = 0; i < 4; i++) {
      await requestEmailSignIn(requestParams(provider, adapter, { email: `u${i}@example.com` }))
    }
    await expect(
      requestEmailSignIn(requestParams(provider, adapter, { email: "u9@example.com" })),
    ).rejects.toBeInstanceOf(RateLimited)
    expect(received).toHaveLength(6)
  })
})
