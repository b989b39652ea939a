/**
 * The dev mailbox of `@latchkey/qwik` (`src/dev-mailbox.ts`): its page answers only this
 * machine and only when the app says it is in development; the senders keep what the providers
 * hand them, newest first, without writing a link to the log.
 */
import type { RequestEvent } from "@builder.io/qwik-city"
import type { SendVerificationRequestParams } from "@latchkey/core/providers/email"
import type { SendPasswordMailParams } from "@latchkey/core/providers/password"
import fc from "fast-check"
import { describe, expect, it, vi } from "vitest"
import {
  createDevMailbox,
  type DevMail,
  type DevMailStore,
  devMailboxGuard,
  isLoopback,
  memoryMailStore,
} from "../src/dev-mailbox.js"

class NotFound {
  constructor(readonly status: number) {}
}

/** What the guard sees of a request: the client's address, and what it sets or throws. */
function guardOutcome(enabled: boolean, ip: string | null) {
  const headers = new Headers()
  const event = {
    clientConn: { ip },
    headers,
    error: (status: number) => new NotFound(status),
  } as unknown as RequestEvent
  try {
    void devMailboxGuard(enabled)(event)
    return { status: 200, headers }
  } catch (thrown) {
    if (thrown instanceof NotFound) return { status: thrown.status, headers }
    throw thrown
  }
}

describe("devMailboxGuard", () => {
  it("answers loopback clients in development, with no-index, no-referrer and no-store", () => {
    for (const ip of ["127.0.0.1", "127.8.9.10", "::1", "::ffff:127.0.0.1"]) {
      const { status, headers } = guardOutcome(true, ip)
      expect(status).toBe(200)
      expect(headers.get("x-robots-tag")).toBe("noindex, nofollow")
      expect(headers.get("referrer-policy")).toBe("no-referrer")
      expect(headers.get("cache-control")).toBe("no-store")
    }
  })

  it("is a 404 for every other client, and for everyone outside development", () => {
    for (const ip of ["10.0.0.1", "192.168.1.2", "::ffff:10.0.0.1", "fe80::1", "", null]) {
      expect(guardOutcome(true, ip).status).toBe(404)
    }
    expect(guardOutcome(false, "127.0.0.1").status).toBe(404)
    expect(guardOutcome(false, "::1").status).toBe(404)
  })

  it("takes no address outside 127.0.0.0/8 and ::1 for loopback", () => {
    fc.assert(
      fc.property(fc.oneof(fc.ipV4(), fc.ipV6()), (ip) => {
        const loopback = ip.startsWith("127.") || ip === "::1" || /^::ffff:127\./.test(ip)
        expect(isLoopback(ip)).toBe(loopback)
      }),
    )
  })
})

/** A mailbox over a fresh store (the memory store is shared by the process, on purpose). */
function mailbox() {
  const mails: DevMail[] = []
  const store: DevMailStore = {
    add: (mail) => {
      mails.unshift({ ...mail, id: mails.length + 1, sentAt: new Date().toISOString() })
    },
    list: () => mails.slice(),
  }
  return createDevMailbox(store)
}

const expires = new Date("2030-01-01T00:00:00.000Z")

describe("createDevMailbox", () => {
  it("keeps sign-in links and password mails, newest first, and logs no link", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {})
    const box = mailbox()
    const link = "http://localhost:5173/auth/callback/email?token=secret-token&email=a%40b.test"
    await box.sendVerificationRequest({
      identifier: "a@b.test",
      url: link,
      expires,
    } as SendVerificationRequestParams)
    await box.sendPasswordMail({
      identifier: "a@b.test",
      purpose: "email-change-notice",
      message: { subject: "Your address is changing", text: "", html: "" },
    } as unknown as SendPasswordMailParams)
    const [notice, signIn] = await box.list()
    expect(signIn).toMatchObject({
      to: "a@b.test",
      purpose: "sign-in",
      subject: "Sign in to localhost:5173",
      url: link,
      expires: expires.toISOString(),
    })
    expect(notice).toMatchObject({
      purpose: "email-change-notice",
      subject: "Your address is changing",
      url: null,
      expires: null,
    })
    const logged = log.mock.calls.flat().join("\n")
    log.mockRestore()
    expect(logged).toContain("open /dev/mailbox/")
    expect(logged).not.toContain("secret-token")
  })

  it("the memory store is one per process, whichever copy of the module made it", () => {
    const a = memoryMailStore()
    const b = memoryMailStore()
    const before = (b.list() as DevMail[]).length
    void a.add({ to: "x@y.test", purpose: "verify", subject: "s", url: null, expires: null })
    expect((b.list() as DevMail[]).length).toBe(Math.min(before + 1, 100))
    expect((b.list() as DevMail[])[0]?.to).toBe("x@y.test")
  })
})
