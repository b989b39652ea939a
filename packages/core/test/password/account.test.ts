/** The password in the account API: change, set, remove, email change; the view. */
import { afterEach, describe, expect, it, vi } from "vitest"
import {
  type App,
  browser,
  GOOD,
  linkParams,
  postJson,
  provenAccount,
  req,
  sessionCookie,
  setup,
  signIn,
} from "./helpers.js"

afterEach(() => vi.useRealTimers())

function later(seconds: number) {
  if (!vi.isFakeTimers()) vi.useFakeTimers({ toFake: ["Date"], now: Date.now() })
  vi.setSystemTime(Date.now() + seconds * 1000)
}

async function sessionOf(app: App, jar: import("../auth/helpers.js").Jar) {
  const res = await app.auth(req("/auth/session", { jar }))
  return (await res.json()) as { user?: { email?: string } } | null
}

async function view(app: App, b: { jar: import("../auth/helpers.js").Jar }) {
  return (await (await app.auth(req("/auth/account", { jar: b.jar }))).json()) as {
    password: { set: boolean } | null
  }
}

const sessionKinds = {
  database: { strategy: "database" },
  jwt: { strategy: "jwt", revocation: "strict" },
} as const

describe("account/password-change", () => {
  for (const [kind, session] of Object.entries(sessionKinds)) {
    it(`${kind}: needs the current password; ends the other sessions; keeps this one`, async () => {
      const app = setup({}, { session })
      await provenAccount(app)
      const other = await signIn(app, "ann@example.com", GOOD)
      const me = await signIn(app, "ann@example.com", GOOD)
      const wrong = await postJson(
        app,
        "/auth/account/password-change",
        { currentPassword: "nope-nope-nope", password: "brand-new-secret" },
        me,
      )
      expect(wrong.status).toBe(403)
      expect(await wrong.json()).toMatchObject({ error: "CredentialsSignin" })
      const res = await postJson(
        app,
        "/auth/account/password-change",
        { currentPassword: GOOD, password: "brand-new-secret" },
        me,
      )
      expect(res.status).toBe(200)
      expect((await sessionOf(app, me.jar))?.user?.email).toBe("ann@example.com")
      expect((await sessionOf(app, other.jar))?.user).toBeUndefined()
      expect(sessionCookie((await signIn(app, "ann@example.com", GOOD)).jar)).toBeUndefined()
      expect(
        sessionCookie((await signIn(app, "ann@example.com", "brand-new-secret")).jar),
      ).toBeDefined()
    })
  }

  it("a stale session cannot change the password, even with the current one", async () => {
    const app = setup()
    await provenAccount(app)
    const me = await signIn(app, "ann@example.com", GOOD)
    later(11 * 60)
    const res = await postJson(
      app,
      "/auth/account/password-change",
      { currentPassword: GOOD, password: "brand-new-secret" },
      me,
    )
    expect(res.status).toBe(403)
    expect(await res.json()).toMatchObject({ error: "ReauthenticationRequired" })
    vi.useRealTimers()
    expect(sessionCookie((await signIn(app, "ann@example.com", GOOD)).jar)).toBeDefined()
  })

  it("refuses a weak new password with the policy's typed error", async () => {
    const app = setup()
    await provenAccount(app)
    const me = await signIn(app, "ann@example.com", GOOD)
    const res = await postJson(
      app,
      "/auth/account/password-change",
      { currentPassword: GOOD, password: "password1" },
      me,
    )
    expect(res.status).toBe(400)
    expect(await res.json()).toMatchObject({ error: "PasswordRejected", reason: "common" })
  })

  it("guesses of the current password count against the sign-in limit of the account", async () => {
    const app = setup({ rateLimit: { perAccount: { limit: 2, windowMs: 60_000 } } })
    await provenAccount(app)
    const me = await signIn(app, "ann@example.com", GOOD)
    for (let i = 0; i < 2; i++) {
      const r = await postJson(
        app,
        "/auth/account/password-change",
        { currentPassword: `guess-${i}-guess`, password: "brand-new-secret" },
        me,
      )
      expect(r.status).toBe(403)
    }
    const limited = await postJson(
      app,
      "/auth/account/password-change",
      { currentPassword: GOOD, password: "brand-new-secret" },
      me,
    )
    expect(limited.status).toBe(429)
  })
})

describe("account/password-set and password-remove", () => {
  it("the view says whether a password is set; remove obeys the last-method rule; set adds it back", async () => {
    const app = setup()
    await provenAccount(app)
    const me = await signIn(app, "ann@example.com", GOOD)
    expect((await view(app, me)).password).toEqual({ set: true })
    const last = await postJson(app, "/auth/account/password-remove", {}, me)
    expect(last.status).toBe(409)
    expect(await last.json()).toMatchObject({ error: "LastSignInMethod" })
    // A linked account of a provider the app no longer configures is no way to sign in.
    const user = (await app.adapter.getUserByEmail!("ann@example.com"))!
    await app.adapter.linkAccount!({
      userId: user.id,
      provider: "github",
      providerAccountId: "1",
      type: "oauth",
    })
    expect((await postJson(app, "/auth/account/password-remove", {}, me)).status).toBe(409)
    expect(await app.adapter.getPasswordHash!(user.id)).not.toBeNull()
  })

  it("removes the password when another method remains, then sets a new one", async () => {
    const app = setup()
    const { default: GitHub } = await import("../../src/providers/github.js")
    app.config.providers = [
      ...app.config.providers,
      GitHub({ clientId: "id", clientSecret: "secret" }),
    ]
    await provenAccount(app)
    const me = await signIn(app, "ann@example.com", GOOD)
    const user = (await app.adapter.getUserByEmail!("ann@example.com"))!
    await app.adapter.linkAccount!({
      userId: user.id,
      provider: "github",
      providerAccountId: "1",
      type: "oauth",
    })
    // The session alone does not remove it (issue 41, item 6): the password is needed too.
    const bare = await postJson(app, "/auth/account/password-remove", {}, me)
    expect(bare.status).toBe(403)
    expect(await app.adapter.getPasswordHash!(user.id)).not.toBeNull()
    const removed = await postJson(
      app,
      "/auth/account/password-remove",
      { currentPassword: GOOD },
      me,
    )
    expect(removed.status).toBe(200)
    expect(await app.adapter.getPasswordHash!(user.id)).toBeNull()
    expect((await view(app, me)).password).toEqual({ set: false })
    expect(sessionCookie((await signIn(app, "ann@example.com", GOOD)).jar)).toBeUndefined()
    const set = await postJson(
      app,
      "/auth/account/password-set",
      { password: "another-good-one" },
      me,
    )
    expect(set.status).toBe(200)
    expect(
      sessionCookie((await signIn(app, "ann@example.com", "another-good-one")).jar),
    ).toBeDefined()
    const again = await postJson(
      app,
      "/auth/account/password-set",
      { password: "another-good-one" },
      me,
    )
    expect(again.status).toBe(400)
  })
})

describe("account/email-change", () => {
  it("mails a link to the new address and a notice to the old; the address changes only when the link is confirmed", async () => {
    const app = setup()
    const uid = await provenAccount(app)
    const me = await signIn(app, "ann@example.com", GOOD)
    const mails = app.mails.length
    const res = await postJson(
      app,
      "/auth/account/email-change",
      { email: "ann@new.example", currentPassword: GOOD },
      me,
    )
    expect(res.status).toBe(200)
    const sent = app.mails.slice(mails)
    expect(sent.map((m) => [m.purpose, m.identifier])).toEqual([
      ["email-change", "ann@new.example"],
      ["email-change-notice", "ann@example.com"],
    ])
    expect((await app.adapter.getUser!(uid))!.email).toBe("ann@example.com")
    const link = linkParams(sent[0]!)
    const page = await app.auth(req(`${link.path}?${new URL(sent[0]!.url!).searchParams}`))
    expect(page.status).toBe(200)
    expect((await app.adapter.getUser!(uid))!.email).toBe("ann@example.com")
    const confirm = await postJson(
      app,
      "/auth/password/email-change",
      { token: link.token, uid: link.uid, email: link.email },
      await browser(app),
    )
    expect(confirm.status).toBe(200)
    expect(await app.adapter.getUser!(uid)).toMatchObject({
      email: "ann@new.example",
      emailVerified: expect.any(Date),
    })
    expect(sessionCookie((await signIn(app, "ann@new.example", GOOD)).jar)).toBeDefined()
    const replay = await postJson(
      app,
      "/auth/password/email-change",
      { token: link.token, uid: link.uid, email: link.email },
      await browser(app),
    )
    expect(replay.status).toBe(400)
  })

  it("an address another account holds is refused without saying so", async () => {
    const app = setup()
    await provenAccount(app)
    await provenAccount(app, "bob@example.com")
    const me = await signIn(app, "ann@example.com", GOOD)
    const mails = app.mails.length
    const taken = await postJson(
      app,
      "/auth/account/email-change",
      { email: "bob@example.com", currentPassword: GOOD },
      me,
    )
    const free = await postJson(
      app,
      "/auth/account/email-change",
      { email: "free@example.com", currentPassword: GOOD },
      me,
    )
    expect([taken.status, await taken.text()]).toEqual([free.status, await free.text()])
    const sent = app.mails.slice(mails).map((m) => [m.purpose, m.identifier])
    expect(sent).toEqual([
      ["email-change-notice", "ann@example.com"],
      ["email-change", "free@example.com"],
      ["email-change-notice", "ann@example.com"],
    ])
  })

  it("needs the current password when the account has one", async () => {
    const app = setup()
    await provenAccount(app)
    const me = await signIn(app, "ann@example.com", GOOD)
    const res = await postJson(
      app,
      "/auth/account/email-change",
      { email: "ann@new.example", currentPassword: "wrong-wrong-wrong" },
      me,
    )
    expect(res.status).toBe(403)
    expect(app.mails.filter((m) => m.purpose === "email-change")).toHaveLength(0)
  })
})
