/**
 * A copied session must not turn itself into a fresh two-factor session (issue 29, part 1),
 * written as the attacks, through `Auth()`:
 *
 * - the thief holds a copy of the session cookie of the device the owner turned two-factor on
 *   from (signed in with the password only). Adding a passkey or linking a provider account
 *   needs a recent sign-in, with the second factor when two-factor is on, and never mints a
 *   session with fresh sign-in facts (`auth_time`, `amr`), so the copy cannot step itself up
 *   to turn two-factor off, end the owner's sessions or remove the owner's passkeys;
 * - a session the owner ended is signed out for passkey registration and account linking too
 *   (JWT sessions: revocation, whatever `session.revocation` says for ordinary reads);
 * - account changes and two-factor settings are rate limited per user, in the store;
 * - a wrong second-factor code is logged under its own code.
 *
 * Real parts: the software authenticator (passkeys), the local OpenID Provider (linking), TOTP
 * codes from the secret the settings API showed. Run with the memory adapter here, with
 * PostgreSQL (PGlite, and the server at DATABASE_URL) in packages/adapter-postgres/test, and
 * with a Redis store (REDIS_URL: JWT revocation in Redis) in packages/store-redis/test.
 */

import { PasskeyClient, softwareAuthenticator } from "@latchkey/adapter-test/webauthn"
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest"
import { totpCode } from "../../src/features/two-factor/totp.js"
import { Auth } from "../../src/index.js"
import { decode, type JWT } from "../../src/kernel/token/jwt.js"
import type { Adapter, AdapterUser } from "../../src/kernel/types/adapters.js"
import Credentials from "../../src/providers/credentials.js"
import Passkey from "../../src/providers/passkey.js"
import { MemoryStore, type Store } from "../../src/store.js"
import { TwoFactor } from "../../src/two-factor.js"
import type { AuthConfig } from "../../src/types.js"
import { recordingLogger } from "../auth/helpers.js"
import { oidcProvider } from "../oauth/harness/app.js"
import { APP_ORIGIN, type OidcHarness, startOidcServer } from "../oauth/harness/oidc-server.js"

const SECRET = "a-stolen-session-secret-with-32-bytes-or-more!"
const SESSION = "authjs.session-token"
const EMAIL = "owner@example.com"
const PASSWORD = "correct horse battery staple"

export interface StolenSessionStorage {
  name: string
  /** A fresh, empty adapter per test. */
  adapter: () => Promise<Adapter>
  /** The store of each app (rate limits, and JWT revocation). Default: a fresh MemoryStore. */
  store?: () => Store
}

type Mode =
  | { strategy: "jwt"; revocation: "strict" | "reissue" }
  | { strategy: "database"; revocation?: undefined }

const MODES: [string, Mode][] = [
  ["JWT sessions, strict revocation", { strategy: "jwt", revocation: "strict" }],
  ["JWT sessions, reissue revocation", { strategy: "jwt", revocation: "reissue" }],
  ["database sessions", { strategy: "database" }],
]

type Browser = PasskeyClient<AuthConfig>

// biome-ignore lint/suspicious/noExplicitAny: JSON bodies are read field by field
type Json = any

function travel(seconds: number) {
  if (!vi.isFakeTimers()) vi.useFakeTimers({ toFake: ["Date"], now: Date.now() })
  vi.setSystemTime(Date.now() + seconds * 1000)
}

export function stolenSessionScenarios(storage: StolenSessionStorage): void {
  describe.each(MODES)(`stolen session: ${storage.name}, %s`, (_label, mode) => {
    let op: OidcHarness
    let adapter: Adapter
    let owner: AdapterUser
    let rec: ReturnType<typeof recordingLogger>
    let config: AuthConfig

    beforeAll(async () => {
      op = await startOidcServer()
      op.accounts.set("mallory", {
        sub: "mallory",
        email: "mallory@example.com",
        email_verified: true,
        name: "Mallory",
        picture: "https://img.example/m.png",
      })
    })
    afterAll(() => op.close())
    afterEach(() => vi.useRealTimers())
    beforeEach(async () => {
      adapter = await storage.adapter()
      owner = await adapter.createUser!({
        id: crypto.randomUUID(),
        email: EMAIL,
        name: "Owner",
        emailVerified: new Date(),
      })
      rec = recordingLogger()
      config = makeConfig()
    })

    function makeConfig(extra: Partial<AuthConfig> = {}): AuthConfig {
      return {
        secret: SECRET,
        trustHost: true,
        adapter,
        store: storage.store?.() ?? new MemoryStore(),
        session: {
          strategy: mode.strategy,
          ...(mode.revocation ? { revocation: mode.revocation } : {}),
        },
        experimental: { enableWebAuthn: true },
        twoFactor: TwoFactor({ issuer: "Latchkey Test" }),
        providers: [
          Passkey(),
          Credentials({
            credentials: { email: {}, password: { type: "password" } },
            authorize: async (c) =>
              c.email === EMAIL && c.password === PASSWORD
                ? ((await adapter.getUser!(owner.id)) ?? null)
                : null,
          }),
          oidcProvider(op),
        ],
        logger: rec.logger,
        ...extra,
      }
    }

    function browser(cfg: AuthConfig = config): Browser {
      return new PasskeyClient({ Auth, config: cfg, origin: APP_ORIGIN })
    }

    function form(b: Browser, path: string, fields: Record<string, string>) {
      return b.send(path, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: APP_ORIGIN },
        body: new URLSearchParams(fields).toString(),
      })
    }

    async function postJson(b: Browser, path: string, body: Record<string, unknown> = {}) {
      const res = await b.send(path, {
        method: "POST",
        headers: { "content-type": "application/json", accept: "application/json" },
        body: JSON.stringify(body),
      })
      const type = res.headers.get("content-type") ?? ""
      return {
        status: res.status,
        body: (type.includes("json") ? await res.json() : null) as Json,
        res,
      }
    }

    /** The first factor: the password. Lands on the code page when two-factor is on. */
    async function passwordSignIn(b: Browser = browser()) {
      const res = await form(b, "/callback/credentials", { email: EMAIL, password: PASSWORD })
      return { b, location: new URL(res.headers.get("location") ?? "http://x/") }
    }

    /** Turns two-factor on from `b` (a recent password session); returns the TOTP secret. */
    async function turnOnTwoFactor(b: Browser): Promise<string> {
      const enroll = await postJson(b, "/two-factor/enroll")
      expect(enroll.status).toBe(200)
      const secret: string = enroll.body.secret
      const confirm = await postJson(b, "/two-factor/confirm", { code: totpCode(secret) })
      expect(confirm.status).toBe(200)
      return secret
    }

    /** Password and code: a session whose `amr` has `mfa`. */
    async function twoFactorSignIn(secret: string) {
      const { b, location } = await passwordSignIn()
      expect(location.pathname).toBe("/auth/two-factor")
      // The next time step's code: confirming the enrollment spent the current one.
      await form(b, "/two-factor/verify", { code: totpCode(secret, Date.now() + 30_000) })
      expect((await b.session())?.user?.email).toBe(EMAIL)
      return b
    }

    /** A copy of `from`'s session cookies: the stolen cookie in the thief's browser. */
    function copySession(from: Browser): Browser {
      const thief = browser()
      for (const [name, value] of from.cookies) {
        if (name.startsWith(SESSION)) thief.cookies.set(name, value)
      }
      return thief
    }

    /** What the session cookie says about the sign-in (JWT claims, or the database row). */
    async function signInFacts(b: Browser) {
      const value = b.cookies.get(SESSION)
      if (value === undefined) return undefined
      if (mode.strategy === "jwt") {
        const token = (await decode({ token: value, secret: SECRET, salt: SESSION })) as JWT
        return { id: token.sid, authTime: token.auth_time, amr: token.amr }
      }
      const found = await adapter.getSessionAndUser!(value)
      return {
        id: value,
        authTime: found?.session.authTime?.valueOf(),
        amr: found?.session.amr,
      }
    }

    const passkeysOf = async () => adapter.listAuthenticatorsByUserId!(owner.id)
    const oidcUser = () =>
      adapter.getUserByAccount!({ provider: "oidc", providerAccountId: "mallory" })

    /** The OIDC flow as mallory's provider account; the redirect's `error`, or null. */
    async function linkMallory(b: Browser): Promise<string | null> {
      const start = await form(b, "/signin/oidc", { callbackUrl: "/" })
      op.accountId = "mallory"
      const back = await op.authorize(start.headers.get("location")!)
      const done = await b.send(`/callback/oidc${back.search}`)
      return new URL(done.headers.get("location")!).searchParams.get("error")
    }

    /** The options for a passkey of the signed-in user, then the authenticator's response. */
    async function registerPasskey(b: Browser) {
      const key = softwareAuthenticator()
      const options = await b.options({ action: "register" })
      if (options.status !== 200) return { options, callback: undefined, key }
      const credential = key.register(options.body.options, { origin: APP_ORIGIN })
      return { options, callback: await b.callback("register", credential), key }
    }

    it("two-factor on: the copied password-only session cannot register a passkey, so it never holds a two-factor session", async () => {
      const { b: laptop } = await passwordSignIn()
      const secret = await turnOnTwoFactor(laptop)
      const phone = await twoFactorSignIn(secret)
      const thief = copySession(laptop)
      const before = await signInFacts(thief)
      expect(before?.amr).toEqual(["pwd"])

      const disable = await postJson(thief, "/two-factor/disable")
      expect(disable.status).toBe(403)
      expect(disable.body.error).toBe("ReauthenticationRequired")

      const attempt = await registerPasskey(thief)
      expect(attempt.options.status).toBe(403)
      expect(attempt.options.body.error?.type).toBe("ReauthenticationRequired")
      expect(attempt.callback).toBeUndefined()
      expect(await passkeysOf()).toEqual([])
      // The copy is what it was: a password-only session, no fresh sign-in.
      expect(await signInFacts(thief)).toEqual(before)

      for (const [path, body] of [
        ["/two-factor/disable", {}],
        ["/two-factor/regenerate", {}],
        ["/account/sessions-revoke-others", {}],
      ] as const) {
        const refused = await postJson(thief, path, body)
        expect([path, refused.status, refused.body.error]).toEqual([
          path,
          403,
          "ReauthenticationRequired",
        ])
      }
      expect((await phone.session())?.user?.email).toBe(EMAIL)
      expect((await adapter.getTwoFactor!(owner.id))?.enabledAt).toBeInstanceOf(Date)
    })

    it("two-factor on: the owner's two-factor session adds a passkey, and its session stays the same", async () => {
      const { b: laptop } = await passwordSignIn()
      const secret = await turnOnTwoFactor(laptop)
      const phone = await twoFactorSignIn(secret)
      const before = await signInFacts(phone)
      expect(before?.amr).toContain("mfa")
      travel(60)
      const { options, callback } = await registerPasskey(phone)
      expect(options.status).toBe(200)
      expect(callback?.status).toBe(200)
      expect(callback?.url).toBe(`${APP_ORIGIN}/`)
      expect(await passkeysOf()).toHaveLength(1)
      expect(await signInFacts(phone)).toEqual(before)
    })

    it("two-factor on: the copied session cannot link a provider account either", async () => {
      const { b: laptop } = await passwordSignIn()
      const secret = await turnOnTwoFactor(laptop)
      await twoFactorSignIn(secret)
      const thief = copySession(laptop)
      const before = await signInFacts(thief)
      expect(await linkMallory(thief)).toBe("ReauthenticationRequired")
      expect(await oidcUser()).toBeNull()
      expect(await adapter.listAccountsByUserId!(owner.id)).toEqual([])
      expect(await signInFacts(thief)).toEqual(before)
      expect((await postJson(thief, "/two-factor/disable")).status).toBe(403)
    })

    it("registering a passkey never makes a stale session recent", async () => {
      const { b: laptop } = await passwordSignIn()
      const { b: phone } = await passwordSignIn()
      const thief = copySession(laptop)
      const before = await signInFacts(thief)

      travel(9 * 60)
      const { callback } = await registerPasskey(thief)
      // Recent enough to add a passkey, but adding it proves the passkey, not the account.
      expect(callback?.status).toBe(200)
      expect(await passkeysOf()).toHaveLength(1)
      expect(await signInFacts(thief)).toEqual(before)

      travel(2 * 60)
      const revoke = await postJson(thief, "/account/sessions-revoke-others")
      expect(revoke.status).toBe(403)
      expect(revoke.body.error).toBe("ReauthenticationRequired")
      // Eleven minutes after sign-in, another passkey is refused as stale.
      const stale = await registerPasskey(thief)
      expect(stale.options.status).toBe(403)
      expect(stale.options.body.error?.type).toBe("ReauthenticationRequired")
      expect(await passkeysOf()).toHaveLength(1)
      expect((await phone.session())?.user?.email).toBe(EMAIL)
    })

    it("linking a provider account needs a recent sign-in and never refreshes it", async () => {
      const { b: laptop } = await passwordSignIn()
      const before = await signInFacts(laptop)
      travel(11 * 60)
      expect(await linkMallory(laptop)).toBe("ReauthenticationRequired")
      expect(await oidcUser()).toBeNull()
      expect(await signInFacts(laptop)).toEqual(before)

      const { b: fresh } = await passwordSignIn()
      const facts = await signInFacts(fresh)
      travel(60)
      expect(await linkMallory(fresh)).toBeNull()
      expect((await oidcUser())?.id).toBe(owner.id)
      expect(await signInFacts(fresh)).toEqual(facts)
      expect((await fresh.session())?.user?.email).toBe(EMAIL)
    })

    it("a session the owner ended cannot finish a passkey registration it started", async () => {
      const { b: laptop } = await passwordSignIn()
      const thief = copySession(laptop)
      const key = softwareAuthenticator()
      const options = await thief.options({ action: "register" })
      expect(options.status).toBe(200)

      const { b: phone } = await passwordSignIn()
      expect((await postJson(phone, "/account/sessions-revoke-others")).status).toBe(200)

      const done = await thief.callback(
        "register",
        key.register(options.body.options, { origin: APP_ORIGIN }),
      )
      expect(done.url).not.toBe(`${APP_ORIGIN}/`)
      expect(await passkeysOf()).toEqual([])
      expect(await adapter.getAuthenticator!(key.credentialId)).toBeNull()
      // Signed out for passkey registration from now on: no email, no options. (An ordinary
      // read with "reissue" asks about revocation only at the token's next re-issue.)
      expect((await thief.options({ action: "register" })).status).toBe(400)
      if (mode.revocation !== "reissue") expect(await thief.session()).toBeNull()
    })

    it("a session the owner ended cannot link the attacker's provider account", async () => {
      const { b: laptop } = await passwordSignIn()
      const thief = copySession(laptop)
      const { b: phone } = await passwordSignIn()
      expect((await postJson(phone, "/account/sessions-revoke-others")).status).toBe(200)

      await linkMallory(thief)
      expect((await oidcUser())?.id).not.toBe(owner.id)
      expect(await adapter.listAccountsByUserId!(owner.id)).toEqual([])
      // The attacker's later sign-in with that provider account is not the owner's account.
      const later = browser()
      await linkMallory(later)
      expect((await later.session())?.user?.email).not.toBe(EMAIL)
    })

    it("account changes and two-factor settings are rate limited per user: 429 with Retry-After", async () => {
      config = makeConfig({
        account: { rateLimit: { perUser: { limit: 3, windowMs: 15 * 60 * 1000 } } },
      })
      const { b: laptop } = await passwordSignIn()
      const { b: phone } = await passwordSignIn()
      const other = copySession(phone)
      const answers: number[] = []
      for (let i = 0; i < 2; i++) {
        answers.push((await postJson(laptop, "/account/session-revoke", { id: "none" })).status)
      }
      answers.push((await postJson(laptop, "/two-factor/enroll")).status)
      const limited = await postJson(laptop, "/two-factor/enroll")
      expect(answers).toEqual([404, 404, 200])
      expect(limited.status).toBe(429)
      expect(limited.body.error).toBe("RateLimited")
      expect(Number(limited.res.headers.get("retry-after"))).toBeGreaterThan(0)
      const account = await postJson(other, "/account/sessions-revoke-others")
      expect(account.status).toBe(429)
      expect(account.body.error).toBe("RateLimited")
      expect(Number(account.res.headers.get("retry-after"))).toBeGreaterThan(0)
      expect((await registerPasskey(laptop)).options.status).toBe(429)
      expect((await laptop.session())?.user?.email).toBe(EMAIL)
    })

    it("a wrong second-factor code is logged under its own code", async () => {
      const { b: laptop } = await passwordSignIn()
      const secret = await turnOnTwoFactor(laptop)
      const { b, location } = await passwordSignIn()
      expect(location.pathname).toBe("/auth/two-factor")
      const wrong = String((Number(totpCode(secret)) + 1) % 1_000_000).padStart(6, "0")
      await form(b, "/two-factor/verify", { code: wrong })
      const codes = rec.warnings()
      expect(codes).toContain("two-factor-refused")
      expect(codes).not.toContain("credentials-refused")
    })
  })
}
