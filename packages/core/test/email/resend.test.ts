/**
 * Mail over HTTP through Resend's API, against a Resend-compatible server on loopback: the
 * official `resend` client accepts it (so it answers as Resend does), email-link sign-in and
 * the Password provider's mails go through it with `fetch` alone, and every refusal is an
 * `EmailSignInError` that names the status and never the key, the link or the address.
 */
import { Resend as ResendClient } from "resend"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { Auth, flushDeferred, setEnvDefaults } from "../../src/index.js"
import { EmailSignInError } from "../../src/kernel/errors/errors.js"
import Password from "../../src/providers/password.js"
import Resend, { resendMail } from "../../src/providers/resend.js"
import { MemoryStore } from "../../src/store.js"
import type { AuthConfig } from "../../src/types.js"
import { Jar, recordingLogger, req, SECRET } from "../auth/helpers.js"
import { fastHasher } from "../password/helpers.js"
import { type ResendStandIn, startResendStandIn } from "./resend-server.js"

const KEY = "re_test_0123456789abcdefghijklmnopqrstuv"
const FROM = "Acme <login@acme.test>"

let api: ResendStandIn
beforeAll(async () => {
  api = await startResendStandIn(KEY)
})
afterAll(() => api.close())

const lastMail = () => api.mails.at(-1)!
const linkIn = (text: string) => /https?:\/\/\S+/.exec(text)![0]

describe("the loopback server answers as Resend does", () => {
  it("the official resend client sends through it, and gets Resend's refusals", async () => {
    const client = new ResendClient(KEY, { baseUrl: api.baseUrl })
    const sent = await client.emails.send({
      from: FROM,
      to: "ann@example.com",
      subject: "Hello",
      text: "Hi",
    })
    expect(sent.error).toBeNull()
    expect(sent.data?.id).toMatch(/^[0-9a-f-]{36}$/)
    expect(lastMail()).toMatchObject({ from: FROM, to: ["ann@example.com"], subject: "Hello" })
    const refused = await client.emails.send({
      from: FROM,
      to: "refused@example.com",
      subject: "x",
      text: "x",
    })
    expect(refused.error?.name).toBe("validation_error")
    const wrongKey = new ResendClient("re_wrong", { baseUrl: api.baseUrl })
    const denied = await wrongKey.emails.send({ from: FROM, to: "a@b.c", subject: "x", text: "x" })
    expect(denied.error?.name).toBe("invalid_api_key")
  })
})

describe("Resend: email-link sign-in over HTTP", () => {
  /** An app with the Resend provider; its key from AUTH_RESEND_KEY, none when `key` is null. */
  function app(key: string | null = KEY) {
    const log = recordingLogger()
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      adapter: MemoryAdapter(),
      store: new MemoryStore(),
      logger: log.logger,
      providers: [Resend({ from: FROM, baseUrl: api.baseUrl })],
    }
    // As an app has it: the key from AUTH_RESEND_KEY.
    if (key !== null) setEnvDefaults({ AUTH_RESEND_KEY: key }, config)
    return { config, log }
  }

  async function requestLink(config: AuthConfig, email: string) {
    const jar = new Jar()
    const csrf = await Auth(req("/auth/csrf", { jar }), config)
    jar.take(csrf)
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const res = await Auth(req("/auth/signin/resend", { form: { email, csrfToken }, jar }), config)
    jar.take(res)
    return { res, jar }
  }

  it("sends the sign-in mail through the API with the key from AUTH_RESEND_KEY; the link signs in", async () => {
    const { config } = app()
    const { res, jar } = await requestLink(config, "Ann@Example.com")
    expect(res.headers.get("location")).toContain("/auth/verify-request")
    const mail = lastMail()
    expect(mail).toMatchObject({
      from: FROM,
      to: ["ann@example.com"],
      authorization: `Bearer ${KEY}`,
    })
    expect(mail.subject).toMatch(/^Sign in to /)
    const link = linkIn(mail.text!)
    expect(mail.html).toContain(link.replaceAll("&", "&amp;"))
    const page = await Auth(new Request(link, { headers: { cookie: jar.header() } }), config)
    jar.take(page)
    const fields = Object.fromEntries(
      [
        ...(await page.text()).matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g),
      ].map((m) => [m[1]!, m[2]!.replace(/&amp;/g, "&")]),
    )
    const signedIn = await Auth(req("/auth/callback/resend", { form: fields, jar }), config)
    expect(signedIn.headers.getSetCookie().join()).toContain("authjs.session-token=")
  })

  it("a refusal is an EmailSignInError with the status and Resend's error name, and no secret", async () => {
    const { config, log } = app()
    await requestLink(config, "refused@example.com")
    api.failWith(500)
    try {
      await requestLink(config, "bob@example.com")
    } finally {
      api.failWith(undefined)
    }
    const errors = log.calls.filter((c) => c.level === "error").map((c) => c.args[0] as Error)
    expect(errors.map((e) => e instanceof EmailSignInError)).toEqual([true, true])
    expect(errors[0]!.message).toBe("Resend refused the mail: HTTP 422 validation_error")
    expect(errors[1]!.message).toBe("Resend refused the mail: HTTP 500 application_error")
    const logged = JSON.stringify(log.calls, (_, v) =>
      v instanceof Error ? { ...v, message: v.message, cause: String(v.cause) } : v,
    )
    expect(logged).not.toContain(KEY)
    expect(logged).not.toContain("refused@example.com")
    expect(logged).not.toContain("token=")
  })

  it("without a key, the mail is not sent and the error names AUTH_RESEND_KEY", async () => {
    const { config, log } = app(null)
    const before = api.mails.length
    await requestLink(config, "carl@example.com")
    expect(api.mails).toHaveLength(before)
    const error = log.calls.find((c) => c.level === "error")?.args[0] as EmailSignInError
    expect(error).toBeInstanceOf(EmailSignInError)
    expect(String(error.cause)).toContain("AUTH_RESEND_KEY")
  })

  it("an unreachable API is a transport error, quickly", async () => {
    const mail = resendMail({
      apiKey: KEY,
      from: FROM,
      baseUrl: "http://127.0.0.1:9",
      timeoutMs: 2000,
    })
    const failure = await mail
      .send({ to: "a@b.c", subject: "s", text: "t", html: "h" })
      .catch((e) => e)
    expect(failure).toBeInstanceOf(EmailSignInError)
    expect(failure.details).toEqual({ api: "Resend", reason: "transport" })
    expect(failure.cause).toBeUndefined()
  })
})

describe("resendMail: the Password provider's mails over HTTP", () => {
  it("the sign-up verification mail goes through Resend, and its link proves the address", async () => {
    const mail = resendMail({ apiKey: KEY, from: FROM, baseUrl: api.baseUrl })
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      adapter: MemoryAdapter(),
      store: new MemoryStore(),
      logger: recordingLogger().logger,
      providers: [Password({ hasher: fastHasher(), sendPasswordMail: mail.sendPasswordMail })],
    }
    const jar = new Jar()
    const csrf = await Auth(req("/auth/csrf", { jar }), config)
    jar.take(csrf)
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const signup = await Auth(
      req("/auth/password/signup", {
        form: { email: "dora@example.com", password: "tangerine-orbit-cabinet", csrfToken },
        jar,
        headers: { accept: "text/html" },
      }),
      config,
    )
    jar.take(signup)
    // The sign-up mail leaves after the answer (its due depends on the account).
    await flushDeferred()
    const sent = lastMail()
    expect(sent).toMatchObject({ to: ["dora@example.com"], from: FROM })
    const verify = new URL(linkIn(sent.text!))
    expect(verify.pathname).toBe("/auth/password/verify")
    await Auth(
      req("/auth/password/verify", {
        form: { ...Object.fromEntries(verify.searchParams), csrfToken },
        jar,
      }),
      config,
    )
    expect(
      (await config.adapter!.getUserByEmail!("dora@example.com"))?.emailVerified,
    ).toBeInstanceOf(Date)
  })
})
