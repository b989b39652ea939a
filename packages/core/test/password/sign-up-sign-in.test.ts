/** Sign-up, verification and sign-in of password accounts through `Auth()`. */
import { describe, expect, it } from "vitest"
import {
  browser,
  GOOD,
  linkParams,
  postForm,
  postJson,
  provenAccount,
  req,
  sessionCookie,
  setup,
  signIn,
} from "./helpers.js"

describe("password sign-up and verification", () => {
  it("creates an unproven user, stores a hash, mails a verification link", async () => {
    const app = setup()
    const b = await browser(app)
    const res = await postJson(
      app,
      "/auth/password/signup",
      { email: "Ann@Example.com", password: GOOD },
      b,
    )
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ ok: true })
    const user = await app.adapter.getUserByEmail!("ann@example.com")
    expect(user).toMatchObject({ email: "ann@example.com", emailVerified: null })
    const hash = await app.adapter.getPasswordHash!(user!.id)
    expect(hash).toMatch(/^\$pbkdf2-sha256\$i=1000\$/)
    expect(app.mails).toHaveLength(1)
    expect(app.mails[0]).toMatchObject({ purpose: "verify", identifier: "ann@example.com" })
    expect(app.mails[0]!.message.text).toContain(app.mails[0]!.url)
  })

  it("a form post is redirected to the check-your-mail page", async () => {
    const app = setup()
    const b = await browser(app)
    const res = await postForm(
      app,
      "/auth/password/signup",
      { email: "ann@example.com", password: GOOD },
      b,
    )
    expect(res.status).toBe(303)
    expect(res.headers.get("location")).toBe("http://app.example.com/auth/password/sent")
    const page = await app.auth(req("/auth/password/sent"))
    expect(await page.text()).toContain("Check your email")
  })

  it("an unproven account cannot sign in; the right password gets code=email-unverified", async () => {
    const app = setup()
    const b = await browser(app)
    await postJson(app, "/auth/password/signup", { email: "ann@example.com", password: GOOD }, b)
    const right = await signIn(app, "ann@example.com", GOOD)
    expect(right.res.headers.get("location")).toContain(
      "error=CredentialsSignin&code=email-unverified",
    )
    expect(sessionCookie(right.jar)).toBeUndefined()
    const wrong = await signIn(app, "ann@example.com", "not-the-password")
    expect(wrong.res.headers.get("location")).toContain("error=CredentialsSignin&code=credentials")
  })

  it("GET on the verification link consumes nothing; the POST proves the address; then sign-in works", async () => {
    const app = setup()
    const b = await browser(app)
    await postJson(app, "/auth/password/signup", { email: "ann@example.com", password: GOOD }, b)
    const link = linkParams(app.mails[0]!)
    const scanner = await app.auth(req(`${link.path}?${new URL(app.mails[0]!.url!).searchParams}`))
    expect(scanner.status).toBe(200)
    expect(scanner.headers.get("referrer-policy")).toBe("strict-origin")
    const page = await scanner.text()
    expect(page).toContain('name="token"')
    const res = await postJson(
      app,
      "/auth/password/verify",
      { token: link.token, uid: link.uid, email: link.email },
      b,
    )
    expect(res.status).toBe(200)
    const user = await app.adapter.getUser!(link.uid)
    expect(user!.emailVerified).toBeInstanceOf(Date)
    const { res: signedIn, jar } = await signIn(app, "ann@example.com", GOOD)
    expect(signedIn.headers.get("location")).toBe("http://app.example.com")
    expect(sessionCookie(jar)).toBeDefined()
  })

  it("the verification link works once", async () => {
    const app = setup()
    const b = await browser(app)
    await postJson(app, "/auth/password/signup", { email: "ann@example.com", password: GOOD }, b)
    const link = linkParams(app.mails[0]!)
    const body = { token: link.token, uid: link.uid, email: link.email }
    expect((await postJson(app, "/auth/password/verify", body, b)).status).toBe(200)
    const replay = await postJson(app, "/auth/password/verify", body, b)
    expect(replay.status).toBe(400)
    expect(await replay.json()).toMatchObject({ error: "Verification" })
  })

  it("a link bound to another user or purpose does nothing", async () => {
    const app = setup()
    const b = await browser(app)
    await postJson(app, "/auth/password/signup", { email: "ann@example.com", password: GOOD }, b)
    await postJson(app, "/auth/password/signup", { email: "bob@example.com", password: GOOD }, b)
    const ann = linkParams(app.mails[0]!)
    const bob = linkParams(app.mails[1]!)
    // Ann's token on Bob's user, and a verification token used as a reset.
    const swapped = await postJson(
      app,
      "/auth/password/verify",
      { token: ann.token, uid: bob.uid, email: bob.email },
      b,
    )
    expect(swapped.status).toBe(400)
    const purpose = await postJson(
      app,
      "/auth/password/reset",
      { token: ann.token, uid: ann.uid, email: ann.email, password: "a-brand-new-password" },
      b,
    )
    expect(purpose.status).toBe(400)
    expect((await app.adapter.getUser!(bob.uid))!.emailVerified).toBeNull()
  })

  it("with requireEmailVerification: false and no mail, a new account signs in at once", async () => {
    const app = setup({ requireEmailVerification: false, sendPasswordMail: undefined })
    const b = await browser(app)
    await postJson(app, "/auth/password/signup", { email: "ann@example.com", password: GOOD }, b)
    const { jar } = await signIn(app, "ann@example.com", GOOD)
    expect(sessionCookie(jar)).toBeDefined()
  })

  it("NFC and NFD spellings of a password sign in the same", async () => {
    const app = setup()
    const nfd = "cafe\u0301-au-lait-matin"
    await provenAccount(app, "ann@example.com", nfd.normalize("NFC"))
    const { jar } = await signIn(app, "ann@example.com", nfd)
    expect(sessionCookie(jar)).toBeDefined()
  })

  it("a weak password is refused with a typed error a person can act on", async () => {
    const app = setup()
    const b = await browser(app)
    const short = await postJson(
      app,
      "/auth/password/signup",
      { email: "ann@example.com", password: "short" },
      b,
    )
    expect(short.status).toBe(400)
    expect(await short.json()).toMatchObject({
      error: "PasswordRejected",
      reason: "too-short",
      message: expect.stringContaining("at least 8"),
    })
    const common = await postJson(
      app,
      "/auth/password/signup",
      { email: "ann@example.com", password: "password123" },
      b,
    )
    expect(await common.json()).toMatchObject({ error: "PasswordRejected", reason: "common" })
    expect(await app.adapter.getUserByEmail!("ann@example.com")).toBeNull()
    const form = await postForm(
      app,
      "/auth/password/signup",
      { email: "ann@example.com", password: "short" },
      b,
    )
    expect(form.headers.get("location")).toBe(
      "http://app.example.com/auth/password/signup?error=PasswordRejected&reason=too-short",
    )
    const page = await (
      await app.auth(req("/auth/password/signup?error=PasswordRejected&reason=too-short"))
    ).text()
    expect(page).toContain("That password is too short.")
  })

  it("the sign-in page links to sign-up and forgot, and offers the link again to an unconfirmed account", async () => {
    const app = setup()
    const page = await (await app.auth(req("/auth/signin"))).text()
    expect(page).toContain('action="http://app.example.com/auth/callback/password"')
    expect(page).toContain('href="http://app.example.com/auth/password/signup"')
    expect(page).toContain('href="http://app.example.com/auth/password/forgot"')
    expect(page).not.toContain("data-latchkey-resend")
    const b = await browser(app)
    await postJson(app, "/auth/password/signup", { email: "ann@example.com", password: GOOD }, b)
    const { res } = await signIn(app, "ann@example.com", GOOD)
    const refused = await (
      await app.auth(
        req(
          new URL(res.headers.get("location")!).pathname +
            new URL(res.headers.get("location")!).search,
        ),
      )
    ).text()
    expect(refused).toContain("data-latchkey-resend")
    expect(refused).toContain('action="http://app.example.com/auth/password/resend"')
    // A wrong password gets no such offer.
    const wrong = await signIn(app, "ann@example.com", "not-the-password")
    const wrongPage = await (
      await app.auth(
        req(
          new URL(wrong.res.headers.get("location")!).pathname +
            new URL(wrong.res.headers.get("location")!).search,
        ),
      )
    ).text()
    expect(wrongPage).not.toContain("data-latchkey-resend")
    const resent = await postForm(app, "/auth/password/resend", { email: "ann@example.com" }, b)
    expect(resent.headers.get("location")).toBe("http://app.example.com/auth/password/sent")
    expect(app.mails.filter((m) => m.purpose === "verify")).toHaveLength(2)
  })
})

describe("the app's own password pages (pages.signUp, forgotPassword, resetPassword, passwordSent)", () => {
  const pages = {
    signUp: "/join",
    forgotPassword: "/account/forgot",
    resetPassword: "/account/reset",
    passwordSent: "/check-your-mail",
  }

  it("replace the built-in ones: links, redirects, and the reset link's page (with its query)", async () => {
    const app = setup({}, { pages })
    const signInPage = await (await app.auth(req("/auth/signin"))).text()
    expect(signInPage).toContain('href="http://app.example.com/join"')
    expect(signInPage).toContain('href="http://app.example.com/account/forgot"')
    expect((await app.auth(req("/auth/password/signup"))).headers.get("location")).toBe(
      "http://app.example.com/join",
    )
    const b = await browser(app)
    const sent = await postForm(
      app,
      "/auth/password/signup",
      { email: "ann@example.com", password: GOOD },
      b,
    )
    expect(sent.headers.get("location")).toBe("http://app.example.com/check-your-mail")
    const weak = await postForm(
      app,
      "/auth/password/signup",
      { email: "bob@example.com", password: "short" },
      b,
    )
    expect(weak.headers.get("location")).toBe(
      "http://app.example.com/join?error=PasswordRejected&reason=too-short",
    )
    await app.adapter.updateUser!({
      id: (await app.adapter.getUserByEmail!("ann@example.com"))!.id,
      emailVerified: new Date(),
    })
    await postForm(app, "/auth/password/forgot", { email: "ann@example.com" }, b)
    const mailed = new URL(app.mails.at(-1)!.url!)
    const opened = await app.auth(req(`${mailed.pathname}${mailed.search}`))
    const custom = new URL(opened.headers.get("location")!)
    expect(custom.pathname).toBe("/account/reset")
    expect(custom.searchParams.get("token")).toBe(mailed.searchParams.get("token"))
    // The app's page posts the link's fields with the new password: the reset works.
    const fields = Object.fromEntries(custom.searchParams)
    const done = await postJson(
      app,
      "/auth/password/reset",
      { ...fields, password: "fresh-new-password" },
      b,
    )
    expect(done.status).toBe(200)
  })
})
