/**
 * Attack tests of password accounts: each fails without the protection it names.
 * Timing is equalised by doing the same expensive work on every path; it is tested by counting
 * hash calls (a dummy hash for unknown addresses), not by the wall clock.
 */
import bcrypt from "bcryptjs"
import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { resolveConfig } from "../../src/kernel/config/resolve.js"
import type { Adapter } from "../../src/kernel/types/adapters.js"
import Password from "../../src/providers/password.js"
import { SECRET } from "../auth/helpers.js"
import {
  type App,
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

/** What a client can observe of a response, apart from timing. */
async function observable(res: Response) {
  return {
    status: res.status,
    location: res.headers.get("location"),
    body: await res.text(),
    cookies: res.headers
      .getSetCookie()
      .map((c) => c.split("=")[0])
      .sort(),
  }
}

async function sessionOf(app: App, jar: import("../auth/helpers.js").Jar) {
  const res = await app.auth(req("/auth/session", { jar }))
  return (await res.json()) as { user?: { email?: string } } | null
}

describe("enumeration", () => {
  it("sign-up with an address that has an account answers as a new sign-up and mails a notice instead", async () => {
    const app = setup()
    const annId = await provenAccount(app)
    for (const accept of ["application/json", "text/html"]) {
      const a = await browser(app)
      const b = await browser(app)
      const before = { ...app.counts }
      const mailsBefore = app.mails.length
      const taken = await postForm(
        app,
        "/auth/password/signup",
        { email: "ann@example.com", password: "another-fine-password" },
        a,
        accept,
      )
      const hashesTaken = app.counts.hash - before.hash
      const fresh = await postForm(
        app,
        "/auth/password/signup",
        { email: `new-${accept.length}@example.com`, password: "another-fine-password" },
        b,
        accept,
      )
      const hashesFresh = app.counts.hash - before.hash - hashesTaken
      expect(await observable(taken)).toEqual(await observable(fresh))
      expect(hashesTaken).toBe(1)
      expect(hashesFresh).toBe(1)
      const sent = app.mails.slice(mailsBefore)
      expect(sent.map((m) => m.purpose)).toEqual(["account-exists", "verify"])
    }
    // Nothing was created or changed for the existing address.
    expect((await app.adapter.getUserByEmail!("ann@example.com"))!.id).toBe(annId)
    const { jar } = await signIn(app, "ann@example.com", GOOD)
    expect(sessionCookie(jar)).toBeDefined()
  })

  it("sign-in: wrong password, unknown address, unproven account and no password answer the same after one hash check", async () => {
    const app = setup()
    await provenAccount(app)
    const b = await browser(app)
    await postJson(app, "/auth/password/signup", { email: "una@example.com", password: GOOD }, b)
    await app.adapter.createUser!({
      id: "oauth-only",
      email: "otto@example.com",
      emailVerified: new Date(),
    })
    const attempts = [
      ["ann@example.com", "wrong-password-here"],
      ["nobody@example.com", "wrong-password-here"],
      ["una@example.com", "wrong-password-here"],
      ["otto@example.com", "wrong-password-here"],
    ] as const
    const seen = []
    for (const [email, password] of attempts) {
      const verifies = app.counts.verify
      const { res } = await signIn(app, email, password)
      expect(app.counts.verify - verifies).toBe(1)
      seen.push(await observable(res))
    }
    for (const other of seen.slice(1)) expect(other).toEqual(seen[0])
    expect(seen[0]!.location).toContain("error=CredentialsSignin&code=credentials")
  })

  it("forgot answers the same for a known and an unknown address, and mails only the known one", async () => {
    const app = setup()
    await provenAccount(app)
    const mails = app.mails.length
    const a = await browser(app)
    const b = await browser(app)
    const known = await postForm(app, "/auth/password/forgot", { email: "ann@example.com" }, a)
    const unknown = await postForm(app, "/auth/password/forgot", { email: "nobody@example.com" }, b)
    expect(await observable(known)).toEqual(await observable(unknown))
    expect(app.mails.slice(mails).map((m) => [m.purpose, m.identifier])).toEqual([
      ["reset", "ann@example.com"],
    ])
  })

  it("resend answers the same whatever the address, and mails only an unproven password account", async () => {
    const app = setup()
    await provenAccount(app)
    const b = await browser(app)
    await postJson(app, "/auth/password/signup", { email: "una@example.com", password: GOOD }, b)
    const mails = app.mails.length
    const answers = []
    for (const email of ["ann@example.com", "una@example.com", "nobody@example.com"]) {
      answers.push(
        await observable(
          await postJson(app, "/auth/password/resend", { email }, await browser(app)),
        ),
      )
    }
    for (const other of answers.slice(1)) expect(other).toEqual(answers[0])
    expect(app.mails.slice(mails).map((m) => [m.purpose, m.identifier])).toEqual([
      ["verify", "una@example.com"],
    ])
  })
})

describe("links", () => {
  async function resetLink(app: App) {
    await postForm(app, "/auth/password/forgot", { email: "ann@example.com" }, await browser(app))
    return linkParams(app.mails.findLast((m) => m.purpose === "reset")!)
  }

  it("a reset link used twice at the same time succeeds once", async () => {
    const app = setup()
    await provenAccount(app)
    const link = await resetLink(app)
    const [a, b] = [await browser(app), await browser(app)]
    const results = await Promise.all([
      postForm(app, "/auth/password/reset", { ...link, password: "first-new-password" }, a),
      postForm(app, "/auth/password/reset", { ...link, password: "second-new-password" }, b),
    ])
    const signedIn = [a, b].filter((x) => sessionCookie(x.jar) !== undefined)
    expect(signedIn).toHaveLength(1)
    expect(results.map((r) => r.status)).toEqual([303, 303])
    const refused = results.find((r) => r.headers.get("location")!.includes("error="))
    expect(refused!.headers.get("location")).toContain("error=Verification")
    const replay = await postJson(
      app,
      "/auth/password/reset",
      { ...link, password: "third-new-password" },
      await browser(app),
    )
    expect(replay.status).toBe(400)
  })

  it("GET on a reset link (a mail scanner) consumes nothing", async () => {
    const app = setup()
    await provenAccount(app)
    const link = await resetLink(app)
    const scan = await app.auth(
      req(
        `${link.path}?token=${link.token}&uid=${link.uid}&email=${encodeURIComponent(link.email)}`,
      ),
    )
    expect(scan.status).toBe(200)
    expect(await scan.text()).toContain('autocomplete="new-password"')
    const res = await postJson(
      app,
      "/auth/password/reset",
      { ...link, password: "first-new-password" },
      await browser(app),
    )
    expect(res.status).toBe(200)
  })

  it("a weak new password does not burn the reset link", async () => {
    const app = setup()
    await provenAccount(app)
    const link = await resetLink(app)
    const b = await browser(app)
    const weak = await postForm(app, "/auth/password/reset", { ...link, password: "short" }, b)
    expect(weak.headers.get("location")).toContain("/auth/password/reset?token=")
    expect(weak.headers.get("location")).toContain("error=PasswordRejected&reason=too-short")
    await postForm(app, "/auth/password/reset", { ...link, password: "a-much-better-one" }, b)
    expect(sessionCookie(b.jar)).toBeDefined()
  })

  it("a reset link is short-lived", async () => {
    const app = setup({ resetMaxAge: 1 })
    await provenAccount(app)
    const link = await resetLink(app)
    await new Promise((r) => setTimeout(r, 1100))
    const res = await postJson(
      app,
      "/auth/password/reset",
      { ...link, password: "first-new-password" },
      await browser(app),
    )
    expect(res.status).toBe(400)
    expect(
      () =>
        resolveConfig({
          ...app.config,
          providers: [Password({ resetMaxAge: 7200, sendPasswordMail: () => {} })],
        }).configError!.problems,
    ).not.toThrow()
    const problems = resolveConfig({
      ...app.config,
      providers: [Password({ resetMaxAge: 7200, sendPasswordMail: () => {} })],
    }).configError!.problems
    expect(problems.map((p) => p.message).join()).toContain("resetMaxAge")
  })

  it("a reset link meeting a squatted (unproven) account claims it: the squatter's password and sessions go, the id stays", async () => {
    const claimed: unknown[] = []
    const app = setup(
      { requireEmailVerification: false },
      { events: { accountClaimed: (m) => void claimed.push(m) } },
    )
    // The squatter signs up with the victim's address and, verification being off, signs in.
    await postJson(
      app,
      "/auth/password/signup",
      { email: "ann@example.com", password: GOOD },
      await browser(app),
    )
    const squatter = await signIn(app, "ann@example.com", GOOD)
    expect(sessionCookie(squatter.jar)).toBeDefined()
    const id = (await app.adapter.getUserByEmail!("ann@example.com"))!.id
    // The real owner tries to sign up: the notice carries a reset link.
    await postJson(
      app,
      "/auth/password/signup",
      { email: "ann@example.com", password: "owner-password-1" },
      await browser(app),
    )
    const link = linkParams(app.mails.findLast((m) => m.purpose === "account-exists")!)
    const owner = await browser(app)
    const res = await postJson(
      app,
      "/auth/password/reset",
      { ...link, password: "owner-password-2" },
      owner,
    )
    expect(res.status).toBe(200)
    expect(await app.adapter.getUser!(id)).toMatchObject({ id, emailVerified: expect.any(Date) })
    expect((await sessionOf(app, owner.jar))?.user?.email).toBe("ann@example.com")
    expect((await sessionOf(app, squatter.jar))?.user).toBeUndefined()
    expect(sessionCookie((await signIn(app, "ann@example.com", GOOD)).jar)).toBeUndefined()
    expect(claimed).toEqual([
      expect.objectContaining({
        via: { proof: "reset-link", provider: "password" },
        removed: expect.objectContaining({ password: true }),
      }),
    ])
  })

  it("a reset link meeting an unproven account whose password the app keeps is refused, nothing removed", async () => {
    const app = setup({}, { account: { hasCredentials: () => true } })
    await postJson(
      app,
      "/auth/password/signup",
      { email: "ann@example.com", password: GOOD },
      await browser(app),
    )
    await postJson(
      app,
      "/auth/password/signup",
      { email: "ann@example.com", password: "owner-password-1" },
      await browser(app),
    )
    const link = linkParams(app.mails.findLast((m) => m.purpose === "account-exists")!)
    const res = await postJson(
      app,
      "/auth/password/reset",
      { ...link, password: "owner-password-2" },
      await browser(app),
    )
    expect(res.status).toBe(409)
    expect(await res.json()).toMatchObject({ error: "AccountNotLinked" })
    expect(await app.adapter.getPasswordHash!(link.uid)).not.toBeNull()
    expect((await app.adapter.getUser!(link.uid))!.emailVerified).toBeNull()
  })
})

describe("a reset ends every session of the user", () => {
  // JWT sessions through the session version: with `revocation: "strict"` an old cookie is
  // refused on its next read (with the default "reissue", at its next re-issue).
  const sessions = {
    database: { strategy: "database" },
    jwt: { strategy: "jwt", revocation: "strict" },
  } as const
  for (const [strategy, session] of Object.entries(sessions)) {
    it(`${strategy} sessions: the others are signed out, only the resetting browser is in`, async () => {
      const app = setup({}, { session })
      await provenAccount(app)
      const phone = await signIn(app, "ann@example.com", GOOD)
      const laptop = await signIn(app, "ann@example.com", GOOD)
      expect((await sessionOf(app, phone.jar))?.user?.email).toBe("ann@example.com")
      await postForm(app, "/auth/password/forgot", { email: "ann@example.com" }, await browser(app))
      const link = linkParams(app.mails.findLast((m) => m.purpose === "reset")!)
      const resetter = await browser(app)
      const res = await postForm(
        app,
        "/auth/password/reset",
        { ...link, password: "fresh-new-password" },
        resetter,
      )
      expect(res.status).toBe(303)
      expect((await sessionOf(app, resetter.jar))?.user?.email).toBe("ann@example.com")
      expect((await sessionOf(app, phone.jar))?.user).toBeUndefined()
      expect((await sessionOf(app, laptop.jar))?.user).toBeUndefined()
      // The old password is gone, the new one works.
      expect(sessionCookie((await signIn(app, "ann@example.com", GOOD)).jar)).toBeUndefined()
      expect(
        sessionCookie((await signIn(app, "ann@example.com", "fresh-new-password")).jar),
      ).toBeDefined()
    })
  }
})

describe("oversized passwords", () => {
  it("a 1 MB password is refused at once, without a hash", async () => {
    const app = setup()
    await provenAccount(app)
    const counts = { ...app.counts }
    const huge = "x".repeat(1024 * 1024)
    const { res } = await signIn(app, "ann@example.com", huge)
    expect(res.status).toBe(400)
    const signup = await postJson(
      app,
      "/auth/password/signup",
      { email: "new@example.com", password: huge },
      await browser(app),
    )
    expect(signup.status).toBe(400)
    expect(app.counts).toEqual(counts)
  })

  it("a password over the byte bound (inside the body limit) is refused before any hash", async () => {
    const app = setup()
    await provenAccount(app)
    const counts = { ...app.counts }
    const long = "é".repeat(600) // 1200 bytes of UTF-8, 600 characters
    const { res } = await signIn(app, "ann@example.com", long)
    expect(res.headers.get("location")).toContain("error=CredentialsSignin")
    const signup = await postJson(
      app,
      "/auth/password/signup",
      { email: "new@example.com", password: long },
      await browser(app),
    )
    expect(await signup.json()).toMatchObject({ error: "PasswordRejected", reason: "too-long" })
    expect(app.counts).toEqual(counts)
    // 64 characters of any script are accepted.
    const ok = await postJson(
      app,
      "/auth/password/signup",
      { email: "new@example.com", password: "𝄞".repeat(64) },
      await browser(app),
    )
    expect(ok.status).toBe(200)
  })
})

describe("CSRF on every password POST", () => {
  const refusals = {
    "a cross-site post": { "sec-fetch-site": "cross-site", origin: "https://evil.example" },
    "a post with neither Origin, Sec-Fetch-Site nor token": { "x-no-fetch-metadata": "1" },
  }
  for (const op of ["signup", "resend", "forgot", "reset", "verify", "email-change"]) {
    for (const [name, headers] of Object.entries(refusals)) {
      it(`password/${op}: ${name} is refused (403) and changes nothing`, async () => {
        const app = setup()
        await provenAccount(app)
        await postForm(
          app,
          "/auth/password/forgot",
          { email: "ann@example.com" },
          await browser(app),
        )
        const link = linkParams(app.mails.at(-1)!)
        const mails = app.mails.length
        const counts = { ...app.counts }
        const { jar } = await browser(app)
        const res = await app.auth(
          req(`/auth/password/${op}`, {
            form: { email: "new@example.com", password: GOOD, token: link.token, uid: link.uid },
            jar,
            headers: { accept: "application/json", ...headers },
          }),
        )
        expect(res.status).toBe(403)
        expect(((await res.json()) as { error: { type: string } }).error.type).toBe("MissingCSRF")
        expect(app.mails.length).toBe(mails)
        expect(app.counts).toEqual(counts)
        expect(await app.adapter.getUserByEmail!("new@example.com")).toBeNull()
      })
    }
  }
})

describe("start-up", () => {
  it("names the adapter methods a password account needs", () => {
    const {
      getPasswordHash: _g,
      setPasswordHash: _s,
      deletePasswordHash: _d,
      ...rest
    } = MemoryAdapter() as Required<Adapter>
    const { configError } = resolveConfig({
      secret: SECRET,
      adapter: rest,
      providers: [Password({ sendPasswordMail: () => {} })],
    })
    expect(configError!.message).toContain("getPasswordHash, setPasswordHash, deletePasswordHash")
  })

  it("refuses a config that cannot send the verification mail, naming the option", () => {
    const { configError } = resolveConfig({
      secret: SECRET,
      adapter: MemoryAdapter(),
      providers: [Password()],
    })
    expect(configError!.message).toContain('providers["password"].server')
    expect(configError!.message).toContain("requireEmailVerification: false")
    const off = resolveConfig({
      secret: SECRET,
      adapter: MemoryAdapter(),
      providers: [Password({ requireEmailVerification: false })],
    })
    expect(off.configError).toBeUndefined()
  })
})

describe("hash upgrades", () => {
  it("an imported bcrypt hash (Auth.js credentials) signs in and is replaced by the current algorithm", async () => {
    const app = setup()
    const user = await app.adapter.createUser!({
      id: "imported",
      email: "old@example.com",
      emailVerified: new Date(),
    })
    await app.adapter.setPasswordHash!(user.id, bcrypt.hashSync("legacy-password", 4))
    const { jar } = await signIn(app, "old@example.com", "legacy-password")
    expect(sessionCookie(jar)).toBeDefined()
    expect(await app.adapter.getPasswordHash!(user.id)).toMatch(/^\$pbkdf2-sha256\$i=1000\$/)
    expect(
      sessionCookie((await signIn(app, "old@example.com", "legacy-password")).jar),
    ).toBeDefined()
  })
})
