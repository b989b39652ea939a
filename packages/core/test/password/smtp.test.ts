/**
 * The Password provider's default sender: with `server` and no `sendPasswordMail`, the mails go
 * through nodemailer to a real SMTP server on loopback (the transport the email provider uses,
 * imported by the provider module only, never from the core's main entry).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { type SmtpInbox, startSmtpInbox } from "../authjs-adapters/smtp-inbox.js"
import { browser, GOOD, postJson, setup } from "./helpers.js"

let inbox: SmtpInbox
beforeAll(async () => {
  inbox = await startSmtpInbox()
})
afterAll(async () => {
  await inbox.close()
})

describe("password mails over SMTP", () => {
  it("a sign-up's verification link arrives at the address through `server`", async () => {
    const app = setup({
      server: inbox.url,
      from: "Test <auth@example.com>",
      sendPasswordMail: undefined,
    })
    const b = await browser(app)
    const res = await postJson(
      app,
      "/auth/password/signup",
      { email: "smtp-ann@example.com", password: GOOD },
      b,
    )
    expect(res.status).toBeLessThan(400)
    const mail = await inbox.nextMail("smtp-ann@example.com")
    expect(mail.text).toMatch(/\/auth\/password\/verify\?\S+/)
    expect(app.log.calls.filter((c) => c.level === "error")).toEqual([])
  })
})
