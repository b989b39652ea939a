/**
 * The account API at `Auth()` level, with real passkeys (software authenticator) and both
 * session strategies: every change, other users' ids (refused as not found, nothing
 * changed), a stale sign-in, CSRF, the last way to sign in, a form post without script, and
 * an adapter without the optional methods. Run with the memory adapter here and with
 * PostgreSQL (PGlite, and the server at DATABASE_URL) in packages/adapter-postgres/test.
 */
import { PasskeyClient, softwareAuthenticator } from "@latchkey/adapter-test/webauthn"
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { Auth, requireRecentAuth } from "../../src/index.js"
import type { Adapter } from "../../src/kernel/types/adapters.js"
import GitHub from "../../src/providers/github.js"
import Nodemailer from "../../src/providers/nodemailer.js"
import Passkey from "../../src/providers/passkey.js"
import { MemoryStore } from "../../src/store.js"
import type { AuthConfig } from "../../src/types.js"
import { credentialsProvider, ORIGIN, recordingLogger, SECRET } from "../auth/helpers.js"

afterEach(() => vi.useRealTimers())

function travel(seconds: number) {
  if (!vi.isFakeTimers()) vi.useFakeTimers({ toFake: ["Date"], now: Date.now() })
  vi.setSystemTime(Date.now() + seconds * 1000)
}

const FIREFOX_LINUX = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0"

type Strategy = "jwt" | "database"

async function setup(strategy: Strategy, extra: Partial<AuthConfig> = {}, given?: Adapter) {
  const adapter = given ?? (await makeAdapter())
  const rec = recordingLogger()
  const config: AuthConfig = {
    providers: [Passkey(), GitHub({ clientId: "id", clientSecret: "secret" })],
    adapter,
    secret: SECRET,
    trustHost: true,
    session: { strategy, ...(strategy === "jwt" ? { revocation: "strict" as const } : {}) },
    experimental: { enableWebAuthn: true },
    logger: rec.logger,
    store: new MemoryStore(),
    ...extra,
  }
  return { adapter, config, rec }
}

/** A browser with the account API's calls. */
class Browser extends PasskeyClient<AuthConfig> {
  async account() {
    const res = await this.send("/account", { headers: { "user-agent": FIREFOX_LINUX } })
    // biome-ignore lint/suspicious/noExplicitAny: read field by field
    return { status: res.status, body: (await res.json()) as any, res }
  }

  async op(name: string, body: Record<string, unknown> = {}, headers: Record<string, string> = {}) {
    const res = await this.send(`/account/${name}`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify(body),
    })
    const type = res.headers.get("content-type") ?? ""
    // biome-ignore lint/suspicious/noExplicitAny: read field by field
    const json = type.includes("json") ? ((await res.json()) as any) : null
    return { status: res.status, body: json, res }
  }
}

function browser(config: AuthConfig) {
  return new Browser({ Auth, config, origin: ORIGIN })
}

/** A user signed up with a passkey, signed in in `browser`. */
async function signUp(config: AuthConfig, email: string) {
  const b = browser(config)
  const key = softwareAuthenticator()
  const res = await b.send(
    `/webauthn-options/passkey?action=register&email=${encodeURIComponent(email)}`,
    {
      headers: { "user-agent": FIREFOX_LINUX },
    },
  )
  // biome-ignore lint/suspicious/noExplicitAny: options JSON
  const options = ((await res.json()) as any).options
  const credential = key.register(options, { origin: ORIGIN })
  const signedIn = await b.callback("register", credential, { "user-agent": FIREFOX_LINUX })
  expect(signedIn.url).toBe(`${ORIGIN}/`)
  const user = (await config.adapter!.getUserByEmail!(email))!
  return { browser: b, key, user }
}

let counter = 0

/** The same user signed in again with `key` in a new browser. */
async function signInAgain(config: AuthConfig, key: ReturnType<typeof softwareAuthenticator>) {
  const b = browser(config)
  counter += 1
  const res = await b.authenticate(key, { counter })
  expect(res.url).toBe(`${ORIGIN}/`)
  return b
}

/** A second passkey for the signed-in user of `b`. */
async function addPasskey(b: Browser) {
  const key = softwareAuthenticator()
  const res = await b.register(key, {})
  expect(res.status).toBe(200)
  return key
}

function linkGitHub(adapter: Adapter, userId: string, providerAccountId = crypto.randomUUID()) {
  return adapter.linkAccount!({ userId, type: "oauth", provider: "github", providerAccountId })
}

let makeAdapter: () => Promise<Adapter> = async () => MemoryAdapter()

/** Registers the scenarios for one adapter (a fresh one per test from `adapter`). */
export function accountApiScenarios(o: { name: string; adapter: () => Promise<Adapter> }) {
  describe(`account API (${o.name})`, () => {
    beforeEach(() => {
      makeAdapter = o.adapter
    })
    describe.each(["jwt", "database"] as const)("account API, %s sessions", (strategy) => {
      it("GET /account: 401 SessionRequired signed out; the account signed in, no token anywhere", async () => {
        const { config } = await setup(strategy)
        const anonymous = await browser(config).account()
        expect(anonymous.status).toBe(401)
        expect(anonymous.body).toMatchObject({ error: "SessionRequired" })

        const { browser: b, user } = await signUp(config, "ann@example.com")
        const { status, body } = await b.account()
        expect(status).toBe(200)
        expect(body.user).toEqual({
          id: user.id,
          name: null,
          email: "ann@example.com",
          image: null,
        })
        expect(body.recentAuth).toMatchObject({ maxAge: 600, recent: true })
        expect(body.recentAuth.authTime).toBeTypeOf("number")
        expect(body.passkeys).toHaveLength(1)
        expect(body.passkeys[0]).toMatchObject({
          name: null,
          backedUp: true,
          deviceType: "multiDevice",
        })
        expect(Date.parse(body.passkeys[0].createdAt)).not.toBeNaN()
        expect(body.sessions).toHaveLength(1)
        expect(body.sessions[0]).toMatchObject({ current: true, userAgent: "Firefox on Linux" })
        expect(body.accounts).toEqual([])
        const text = JSON.stringify(body)
        for (const value of b.cookies.values()) expect(text).not.toContain(value)
      })

      it("passkey-rename renames; a bad name is 400 and changes nothing", async () => {
        const { config } = await setup(strategy)
        const { browser: b } = await signUp(config, "ann@example.com")
        const id = (await b.account()).body.passkeys[0].id
        expect((await b.op("passkey-rename", { id, name: "  Work laptop " })).body).toEqual({
          ok: true,
        })
        expect((await b.account()).body.passkeys[0].name).toBe("Work laptop")
        for (const name of ["", "x".repeat(65), "a\u0000b", 42]) {
          const refused = await b.op("passkey-rename", { id, name })
          expect(refused.status).toBe(400)
          expect(refused.body.error).toBe("InvalidRequest")
        }
        expect((await b.op("passkey-rename", { name: "x" })).status).toBe(400)
        expect((await b.account()).body.passkeys[0].name).toBe("Work laptop")
      })

      it("passkey-delete removes one of two (and its account row); the last one is 409 LastSignInMethod", async () => {
        const { config, adapter } = await setup(strategy)
        const { browser: b, user } = await signUp(config, "ann@example.com")
        const second = await addPasskey(b)
        const [first, other] = (await b.account()).body.passkeys
        expect(other).toBeDefined()
        expect((await b.op("passkey-delete", { id: first.id })).status).toBe(200)
        expect(await adapter.getAuthenticator!(first.id)).toBeNull()
        expect(await adapter.getAccount!(first.id, "passkey")).toBeNull()
        const last = await b.op("passkey-delete", { id: other.id })
        expect(last.status).toBe(409)
        expect(last.body).toMatchObject({ error: "LastSignInMethod" })
        expect(
          (await adapter.listAuthenticatorsByUserId!(user.id)).map((a) => a.credentialID),
        ).toEqual([other.id])
        // The remaining passkey still signs in.
        await signInAgain(config, second)
      })

      it("account-unlink unlinks a provider; the last way to sign in is refused", async () => {
        const { config, adapter } = await setup(strategy)
        const { browser: b, user } = await signUp(config, "ann@example.com")
        const gh = crypto.randomUUID()
        await linkGitHub(adapter, user.id, gh)
        const view = (await b.account()).body
        expect(view.accounts).toEqual([
          { provider: "github", type: "oauth", providerAccountId: gh },
        ])
        // GitHub stays: the passkey may go.
        expect((await b.op("passkey-delete", { id: view.passkeys[0].id })).status).toBe(200)
        const refused = await b.op("account-unlink", { provider: "github", providerAccountId: gh })
        expect([refused.status, refused.body.error]).toEqual([409, "LastSignInMethod"])
        expect(
          await adapter.getUserByAccount!({ provider: "github", providerAccountId: gh }),
        ).not.toBeNull()
        await addPasskey(b)
        expect(
          (await b.op("account-unlink", { provider: "github", providerAccountId: gh })).status,
        ).toBe(200)
        expect(
          await adapter.getUserByAccount!({ provider: "github", providerAccountId: gh }),
        ).toBeNull()
        expect((await b.account()).body.accounts).toEqual([])
      })

      it("the email link is a way in once the address is proven: GET /account lists it, and the last passkey may go", async () => {
        const mailed: string[] = []
        const email = Nodemailer({
          sendVerificationRequest: async ({ identifier }) => void mailed.push(identifier),
        })
        const { config, adapter } = await setup(strategy, { providers: [Passkey(), email] })
        const { browser: b, user } = await signUp(config, "ann@example.com")
        await adapter.updateUser!({ id: user.id, emailVerified: null })
        const unproven = (await b.account()).body
        expect(unproven.emailLink).toBeNull()
        // Not proven: the passkey is the only way in.
        const only = await b.op("passkey-delete", { id: unproven.passkeys[0].id })
        expect([only.status, only.body.error]).toEqual([409, "LastSignInMethod"])

        await adapter.updateUser!({ id: user.id, emailVerified: new Date() })
        const proven = (await b.account()).body
        expect(proven.emailLink).toEqual({ provider: "nodemailer", email: "ann@example.com" })
        expect((await b.op("passkey-delete", { id: proven.passkeys[0].id })).status).toBe(200)
        // With no passkey and no provider account left, the page still has a way in to show.
        const after = (await b.account()).body
        expect([after.passkeys, after.accounts]).toEqual([[], []])
        expect(after.emailLink).toEqual({ provider: "nodemailer", email: "ann@example.com" })
        expect(mailed).toEqual([])
      })

      it("no email provider, no email link, whatever the address", async () => {
        const { config, adapter } = await setup(strategy)
        const { browser: b, user } = await signUp(config, "ann@example.com")
        await adapter.updateUser!({ id: user.id, emailVerified: new Date() })
        expect((await b.account()).body.emailLink).toBeNull()
      })

      it("a credentials provider counts only when account.hasCredentials says so", async () => {
        const withPassword = await setup(strategy, {
          providers: [Passkey(), credentialsProvider()],
          account: { hasCredentials: (user) => user.email === "ann@example.com" },
        })
        const ann = await signUp(withPassword.config, "ann@example.com")
        const id = (await ann.browser.account()).body.passkeys[0].id
        expect((await ann.browser.op("passkey-delete", { id })).status).toBe(200)
        const bob = await signUp(withPassword.config, "bob@example.com")
        const bobs = (await bob.browser.account()).body.passkeys[0].id
        expect((await bob.browser.op("passkey-delete", { id: bobs })).status).toBe(409)
      })

      it("cross-user: A naming B's passkey, session or account gets 404, and nothing of B's changes", async () => {
        const { config, adapter } = await setup(strategy)
        const alice = await signUp(config, "alice@example.com")
        const bob = await signUp(config, "bob@example.com")
        await addPasskey(bob.browser)
        const gh = crypto.randomUUID()
        await linkGitHub(adapter, bob.user.id, gh)
        const bobView = (await bob.browser.account()).body
        const bobPasskey = bobView.passkeys[0].id
        const bobSession = bobView.sessions[0].id

        const attempts: [string, Record<string, unknown>][] = [
          ["passkey-rename", { id: bobPasskey, name: "pwned" }],
          ["passkey-delete", { id: bobPasskey }],
          ["session-revoke", { id: bobSession }],
          ["account-unlink", { provider: "github", providerAccountId: gh }],
          ["passkey-delete", { id: "no-such-passkey" }],
          ["session-revoke", { id: crypto.randomUUID() }],
        ]
        for (const [op, body] of attempts) {
          const res = await alice.browser.op(op, body)
          expect([op, res.status, res.body.error]).toEqual([op, 404, "AccountItemNotFound"])
        }
        const after = (await bob.browser.account()).body
        expect(after.passkeys).toEqual(bobView.passkeys)
        expect(after.sessions).toEqual(bobView.sessions)
        expect(after.accounts).toEqual(bobView.accounts)
        expect((await bob.browser.session())?.user?.email).toBe("bob@example.com")
      })

      it("a sign-in in the same browser replaces its session: one listed, a copy of the old cookie refused", async () => {
        const { config } = await setup(strategy)
        const { browser: b, key } = await signUp(config, "ann@example.com")
        const stolen = new Browser({ Auth, config, origin: ORIGIN })
        for (const [k, v] of b.cookies) stolen.cookies.set(k, v)
        // Signing in again with the passkey (adding one keeps the session: stolen-session tests).
        counter += 1
        expect((await b.authenticate(key, { counter })).url).toBe(`${ORIGIN}/`)
        const sessions = (await b.account()).body.sessions
        expect(sessions).toHaveLength(1)
        expect(sessions[0].current).toBe(true)
        expect(await stolen.session()).toBeNull()
        expect((await b.session())?.user?.email).toBe("ann@example.com")
      })

      it("logs name refusals by type and never carry a cookie, token or credential id value", async () => {
        const { config, rec } = await setup(strategy)
        const alice = await signUp(config, "alice@example.com")
        const bob = await signUp(config, "bob@example.com")
        const bobPasskey = (await bob.browser.account()).body.passkeys[0].id
        await alice.browser.op("passkey-delete", { id: bobPasskey })
        await alice.browser.op("passkey-delete", { id: "x" }, { "sec-fetch-site": "cross-site" })
        // User events: debug lines, never warnings.
        expect(rec.warnings()).not.toContain("account-refused")
        const refusals = rec.calls.filter((c) => String(c.args[0]).startsWith("[account-refused]"))
        expect(refusals.map((c) => c.level)).toEqual(["debug", "debug"])
        expect(String(refusals[0]!.args[0])).toContain("AccountItemNotFound")
        expect(String(refusals[1]!.args[0])).toContain("MissingCSRF")
        const logged = JSON.stringify(rec.calls.map((c) => c.args.map(String)))
        for (const value of [...alice.browser.cookies.values(), ...bob.browser.cookies.values()]) {
          expect(logged).not.toContain(value)
        }
        expect(logged).not.toContain(bobPasskey)
      })

      it("session-revoke ends another device; sessions-revoke-others ends all but this one", async () => {
        const { config } = await setup(strategy)
        const { browser: laptop, key } = await signUp(config, "ann@example.com")
        const phone = await signInAgain(config, key)
        const tablet = await signInAgain(config, key)
        const sessions = (await laptop.account()).body.sessions
        expect(sessions).toHaveLength(3)
        expect(sessions.filter((s: { current: boolean }) => s.current)).toHaveLength(1)
        const phoneId = (await phone.account()).body.sessions.find(
          (s: { current: boolean }) => s.current,
        ).id
        expect((await laptop.op("session-revoke", { id: phoneId })).status).toBe(200)
        expect(await phone.session()).toBeNull()
        expect((await tablet.session())?.user?.email).toBe("ann@example.com")

        const again = await signInAgain(config, key)
        expect((await laptop.op("sessions-revoke-others")).status).toBe(200)
        expect(await tablet.session()).toBeNull()
        expect(await again.session()).toBeNull()
        expect((await laptop.session())?.user?.email).toBe("ann@example.com")
        const left = (await laptop.account()).body.sessions
        expect(left).toHaveLength(1)
        expect(left[0]).toMatchObject({ current: true })
        // The survivor can still make changes (it was re-issued at the new session version).
        expect((await laptop.op("sessions-revoke-others")).status).toBe(200)
        expect((await laptop.session())?.user?.email).toBe("ann@example.com")
      })

      it("a stale sign-in: 403 ReauthenticationRequired and nothing changed; signing in again fixes it", async () => {
        const { config, adapter } = await setup(strategy)
        const { browser: b, key, user } = await signUp(config, "ann@example.com")
        await addPasskey(b)
        const id = (await b.account()).body.passkeys[0].id
        travel(601)
        const view = await b.account()
        expect(view.status).toBe(200)
        expect(view.body.recentAuth.recent).toBe(false)
        for (const [op, body] of [
          ["passkey-delete", { id }],
          ["passkey-rename", { id, name: "x" }],
          ["sessions-revoke-others", {}],
        ] as const) {
          const res = await b.op(op, body)
          expect([res.status, res.body.error]).toEqual([403, "ReauthenticationRequired"])
        }
        expect(await adapter.listAuthenticatorsByUserId!(user.id)).toHaveLength(2)
        const fresh = await signInAgain(config, key)
        expect((await fresh.op("passkey-delete", { id })).status).toBe(200)
      })

      it("CSRF: a cross-site post or one with neither headers nor token is 403 MissingCSRF; a token passes", async () => {
        const { config, adapter } = await setup(strategy)
        const { browser: b, user } = await signUp(config, "ann@example.com")
        await addPasskey(b)
        const id = (await b.account()).body.passkeys[0].id
        const cross = await b.op("passkey-delete", { id }, { "sec-fetch-site": "cross-site" })
        expect([cross.status, cross.body.error]).toEqual([403, "MissingCSRF"])
        const evil = await b.op("passkey-delete", { id }, { origin: "https://evil.example" })
        expect(evil.status).toBe(403)
        // A non-browser client: neither Origin nor Sec-Fetch-Site, so the token decides.
        const bareClient = (body: Record<string, unknown>) =>
          Auth(
            new Request(`${ORIGIN}/auth/account/passkey-delete`, {
              method: "POST",
              headers: { "content-type": "application/json", cookie: b.cookieHeader() },
              body: JSON.stringify(body),
            }),
            config,
          )
        const bare = await bareClient({ id })
        expect(bare.status).toBe(403)
        expect(await adapter.listAuthenticatorsByUserId!(user.id)).toHaveLength(2)
        const { csrfToken } = (await (await b.send("/csrf")).json()) as { csrfToken: string }
        const withToken = await bareClient({ id, csrfToken })
        expect(withToken.status).toBe(200)
        expect(await adapter.listAuthenticatorsByUserId!(user.id)).toHaveLength(1)
      })

      it("a form post without script: 303 to callbackUrl, errors as ?error=; X-Auth-Return-Redirect gets {url}", async () => {
        const { config } = await setup(strategy)
        const { browser: b } = await signUp(config, "ann@example.com")
        const id = (await b.account()).body.passkeys[0].id
        const form = (fields: Record<string, string>, headers: Record<string, string> = {}) =>
          b.send("/account/passkey-rename", {
            method: "POST",
            headers: {
              "content-type": "application/x-www-form-urlencoded",
              accept: "text/html",
              ...headers,
            },
            body: new URLSearchParams(fields).toString(),
          })
        const ok = await form({ id, name: "Phone", callbackUrl: "/settings" })
        expect(ok.status).toBe(303)
        expect(ok.headers.get("location")).toBe(`${ORIGIN}/settings`)
        const offsite = await form({ id, name: "Phone", callbackUrl: "https://evil.example/x" })
        expect(new URL(offsite.headers.get("location")!).origin).toBe(ORIGIN)
        const missing = await form({ id: "nope", name: "x", callbackUrl: "/settings" })
        expect(missing.status).toBe(303)
        expect(missing.headers.get("location")).toBe(`${ORIGIN}/settings?error=AccountItemNotFound`)
        const scripted = await form({ id, name: "Tablet" }, { "x-auth-return-redirect": "1" })
        expect(scripted.status).toBe(200)
        expect(await scripted.json()).toEqual({ url: `${ORIGIN}/auth/account` })
        // A failed CSRF check never redirects a form post.
        const forged = await form(
          { id, name: "x", callbackUrl: "/settings" },
          { "sec-fetch-site": "cross-site" },
        )
        expect(forged.status).toBe(403)
        expect(forged.headers.get("location")).toBeNull()
      })

      it("an unknown op is 400; GET on an op path is 400; the op answers JSON errors", async () => {
        const { config } = await setup(strategy)
        const { browser: b } = await signUp(config, "ann@example.com")
        expect((await b.op("drop-tables")).status).toBe(400)
        for (const body of ["{not json", "[1,2]", `{"id": ${"[".repeat(5000)}`]) {
          const res = await b.send("/account/passkey-delete", {
            method: "POST",
            headers: { "content-type": "application/json" },
            body,
          })
          expect(res.status).toBe(400)
          expect(await res.json()).toMatchObject({ error: "InvalidRequest" })
        }
        const huge = await b.op("passkey-delete", { id: "x".repeat(100_000) })
        expect(huge.status).toBe(400)
        expect((await b.send("/account/passkey-delete")).status).toBe(400)
      })

      it("an adapter without the optional methods: sections null, changes 501 naming the method, one warning", async () => {
        const full = await makeAdapter()
        const {
          deleteAuthenticator: _d,
          renameAuthenticator: _r,
          listAccountsByUserId: _l,
          listSessionsByUserId: _s,
          deleteSessionById: _i,
          ...limited
        } = full
        const { config, rec } = await setup(strategy, {}, limited)
        const { browser: b } = await signUp(config, "ann@example.com")
        const view = (await b.account()).body
        expect(view.passkeys).toHaveLength(1)
        expect(view.accounts).toBeNull()
        if (strategy === "database") expect(view.sessions).toBeNull()
        else expect(view.sessions).toHaveLength(1)
        const id = view.passkeys[0].id
        const rename = await b.op("passkey-rename", { id, name: "x" })
        expect([rename.status, rename.body.error]).toEqual([501, "NotSupportedByAdapter"])
        expect(rename.body.message).toContain("renameAuthenticator")
        expect((await b.op("passkey-delete", { id })).body.message).toContain(
          "listAccountsByUserId",
        )
        await b.account()
        const warnings = rec.calls.filter(
          (c) => c.level === "warn" && c.args[0] === "account-api-unsupported",
        )
        expect(warnings).toHaveLength(1)
        expect(String(warnings[0]!.args[1])).toContain("deleteAuthenticator")
      })
    })

    describe("JWT sessions with revocation off", () => {
      it("lists no sessions and answers 501 for session changes (nothing to end server-side)", async () => {
        const { config } = await setup("jwt", { session: { strategy: "jwt", revocation: "off" } })
        const { browser: b } = await signUp(config, "ann@example.com")
        expect((await b.account()).body.sessions).toBeNull()
        for (const op of ["sessions-revoke-others", "session-revoke"]) {
          const res = await b.op(op, { id: "x" })
          expect([res.status, res.body.error]).toEqual([501, "NotSupportedByAdapter"])
        }
      })
    })

    describe("database sessions with revocation off", () => {
      it("ending other sessions still works: their rows are deleted", async () => {
        const { config } = await setup("database", {
          session: { strategy: "database", revocation: "off" },
        })
        const { browser: laptop, key } = await signUp(config, "ann@example.com")
        const phone = await signInAgain(config, key)
        expect((await laptop.op("sessions-revoke-others")).status).toBe(200)
        expect(await phone.session()).toBeNull()
        expect((await laptop.account()).body.sessions).toHaveLength(1)
      })
    })

    describe("database sessions store the sign-in facts", () => {
      it("a session signed in 11 minutes ago is not recent; auth_time comes from the row", async () => {
        const { config } = await setup("database")
        const { browser: b } = await signUp(config, "ann@example.com")
        const before = (await b.account()).body.recentAuth
        expect(before.recent).toBe(true)
        travel(11 * 60)
        const request = () =>
          new Request(`${ORIGIN}/dashboard`, { headers: { cookie: b.cookieHeader() } })
        const after = (await b.account()).body.recentAuth
        expect(after).toEqual({ authTime: before.authTime, maxAge: 600, recent: false })
        await expect(requireRecentAuth(request(), config)).rejects.toMatchObject({
          type: "ReauthenticationRequired",
          details: { reason: "stale" },
        })
        const facts = await requireRecentAuth(request(), config, { maxAge: 3600 })
        expect(facts.authTime).toBe(before.authTime)
      })
    })
  })
}
