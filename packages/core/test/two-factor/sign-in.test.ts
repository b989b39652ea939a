/**
 * Sign-in with a second factor through `Auth()`, for JWT and database sessions: the pending
 * state reads as no session everywhere, the code or a recovery code completes the sign-in with
 * `amr` and `auth_time`, and every replay (pending state, code, recovery code) is refused.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { totpCode } from "../../src/features/two-factor/totp.js"
import { Auth, getAccessToken, getSession } from "../../src/index.js"
import { decode, getToken } from "../../src/kernel/token/jwt.js"
import { withPlainProviders } from "../../src/plain-providers.js"
import {
  Jar,
  ORIGIN,
  req,
  SECRET,
  SECURE_ORIGIN,
  setCookies,
  signInWithCredentials,
} from "../auth/helpers.js"
import {
  enrollAlice,
  locationOf,
  PENDING,
  passwordStep,
  post,
  postJson,
  SESSION,
  sessionOf,
  twoFactorConfig,
  withAlice,
} from "./helpers.js"

afterEach(() => {
  vi.useRealTimers()
})

function travel(seconds: number) {
  if (!vi.isFakeTimers()) vi.useFakeTimers({ toFake: ["Date"], now: Date.now() })
  vi.setSystemTime(Date.now() + seconds * 1000)
}

/** The next 30-second step's code: the current one is spent by enrollment. */
const nextCode = (secret: string) => totpCode(secret, Date.now() + 30_000)

/** Moves the clock to the next step and answers its code (a step not used yet). */
function laterCode(secret: string): string {
  travel(30)
  return totpCode(secret)
}

for (const strategy of ["jwt", "database"] as const) {
  describe(`two-factor sign-in (${strategy} sessions)`, () => {
    async function enrolled() {
      const setup = twoFactorConfig(strategy)
      await withAlice(setup.adapter)
      const enrollment = await enrollAlice(setup.config)
      return { ...setup, ...enrollment }
    }

    it("after the password only a pending cookie is set, and it reads as no session everywhere", async () => {
      const { config } = await enrolled()
      const { res, jar } = await passwordStep(config)
      expect(res.status).toBe(303)
      expect(locationOf(res).pathname).toBe("/auth/two-factor")
      expect(jar.get(PENDING)).toBeDefined()
      expect(jar.get(SESSION)).toBeUndefined()
      // The pending cookie is sealed: nothing in it reads as a token of any kind.
      expect(await decode({ token: jar.get(PENDING)!, secret: SECRET, salt: SESSION })).toBeNull()

      expect(await sessionOf(config, jar)).toBeNull()
      expect((await getSession(req("/", { jar }), config)).session).toBeNull()
      expect(await getToken({ req: req("/", { jar }), secret: SECRET })).toBeNull()
      const withOidc = await withPlainProviders({
        ...config,
        providers: [
          ...config.providers,
          {
            id: "oidc",
            name: "OIDC",
            type: "oidc",
            issuer: "https://op.example.com",
            clientId: "app",
            clientSecret: "app-secret",
            refresh: true,
          } as never,
        ],
      })
      expect(await getAccessToken(req("/", { jar }), withOidc, "oidc")).toBeNull()
      // A pending cookie presented as the session cookie does not open either.
      const forged = new Jar()
      forged.cookies.set(SESSION, jar.get(PENDING)!)
      expect(await sessionOf(config, forged)).toBeNull()

      const page = await Auth(req("/auth/two-factor", { jar }), config)
      expect(page.status).toBe(200)
      const html = await page.text()
      expect(html).toContain('name="code"')
      expect(html).toContain('name="recoveryCode"')
      expect(html).not.toContain("<script")
    })

    it("the right code issues the session with amr and auth_time; the pending state cannot be replayed", async () => {
      const { config, secret } = await enrolled()
      const { jar } = await passwordStep(config)
      const stolen = jar.get(PENDING)!
      const before = Math.floor(Date.now() / 1000)
      const res = await post(config, "/auth/two-factor/verify", jar, { code: nextCode(secret) })
      expect(res.status).toBe(303)
      expect(res.headers.get("location")).toBe("http://app.example.com")
      expect(jar.get(PENDING)).toBeUndefined()
      const session = (await sessionOf(config, jar)) as { user: { email: string } }
      expect(session.user.email).toBe("alice@example.com")
      if (strategy === "jwt") {
        const token = await decode({ token: jar.get(SESSION)!, secret: SECRET, salt: SESSION })
        expect(token?.amr).toEqual(["pwd", "otp", "mfa"])
        expect(token?.auth_time).toBeGreaterThanOrEqual(before)
      } else {
        const found = await config.adapter!.getSessionAndUser!(jar.get(SESSION)!)
        expect(found?.session.amr).toEqual(["pwd", "otp", "mfa"])
        expect(found?.session.authTime).toBeInstanceOf(Date)
      }

      // The same pending cookie again (with a fresh code): refused, back to sign-in.
      const replay = new Jar()
      replay.cookies.set(PENDING, stolen)
      const again = await post(config, "/auth/two-factor/verify", replay, {
        code: laterCode(secret),
      })
      expect(locationOf(again).pathname).toBe("/auth/signin")
      expect(locationOf(again).searchParams.get("error")).toBe("TwoFactorSignInExpired")
      expect(replay.get(SESSION)).toBeUndefined()
    })

    it("a wrong code keeps the pending state and says so; a code already used in its step is refused", async () => {
      const { config, secret } = await enrolled()
      const { jar } = await passwordStep(config)
      const wrong = await post(config, "/auth/two-factor/verify", jar, {
        code: "000000" === nextCode(secret) ? "111111" : "000000",
      })
      expect(locationOf(wrong).pathname).toBe("/auth/two-factor")
      expect(locationOf(wrong).searchParams.get("error")).toBe("InvalidTwoFactorCode")
      expect(jar.get(SESSION)).toBeUndefined()
      expect(await sessionOf(config, jar)).toBeNull()

      const code = nextCode(secret)
      await post(config, "/auth/two-factor/verify", jar, { code })
      expect(jar.get(SESSION)).toBeDefined()

      // A second browser signs in with the password and types the same code: refused.
      const { jar: other } = await passwordStep(config)
      const reused = await post(config, "/auth/two-factor/verify", other, { code })
      expect(locationOf(reused).searchParams.get("error")).toBe("InvalidTwoFactorCode")
      expect(other.get(SESSION)).toBeUndefined()
    })

    it("a recovery code works once, fires an event, and cannot be used again", async () => {
      const { config, recoveryCodes, events } = await enrolled()
      const [code] = recoveryCodes
      const { jar } = await passwordStep(config)
      await post(config, "/auth/two-factor/verify", jar, { recoveryCode: code!.toUpperCase() })
      expect(jar.get(SESSION)).toBeDefined()
      expect(events).toContainEqual({
        type: "recovery-code-used",
        userId: "user-alice",
        remaining: 9,
      })

      const { jar: again } = await passwordStep(config)
      const res = await post(config, "/auth/two-factor/verify", again, { recoveryCode: code! })
      expect(locationOf(res).searchParams.get("error")).toBe("InvalidTwoFactorCode")
      expect(again.get(SESSION)).toBeUndefined()
    })

    it("brute force is stopped: after 10 attempts even the right code is refused", async () => {
      const { config, secret } = await enrolled()
      const { jar } = await passwordStep(config)
      const right = nextCode(secret)
      const wrong = right === "123456" ? "654321" : "123456"
      for (let i = 0; i < 10; i++) {
        const res = await post(config, "/auth/two-factor/verify", jar, { code: wrong })
        expect(locationOf(res).searchParams.get("error")).toBe("InvalidTwoFactorCode")
      }
      const limited = await post(config, "/auth/two-factor/verify", jar, { code: right })
      expect(locationOf(limited).searchParams.get("error")).toBe("RateLimited")
      expect(jar.get(SESSION)).toBeUndefined()
      // Per user, not per browser: a new password sign-in does not reset it.
      const { jar: fresh } = await passwordStep(config)
      const json = await postJson(config, "/auth/two-factor/verify", fresh, { code: right })
      expect(json.status).toBe(429)
      expect(await json.json()).toMatchObject({ error: "RateLimited" })
    })

    it("the pending state expires", async () => {
      const { config, secret } = await enrolled()
      const { jar } = await passwordStep(config)
      travel(300)
      const res = await post(config, "/auth/two-factor/verify", jar, { code: totpCode(secret) })
      expect(locationOf(res).pathname).toBe("/auth/signin")
      // Its own error, not a wrong code: nothing was wrong with the code, the step is over.
      expect(locationOf(res).searchParams.get("error")).toBe("TwoFactorSignInExpired")
      expect(jar.get(SESSION)).toBeUndefined()
      // The code page itself, opened after the step expired, sends to sign-in the same way.
      const page = await Auth(req("/auth/two-factor", { jar }), config)
      expect(locationOf(page).searchParams.get("error")).toBe("TwoFactorSignInExpired")
      const json = await postJson(config, "/auth/two-factor/verify", jar, {
        code: totpCode(secret),
      })
      expect(json.status).toBe(400)
      expect(await json.json()).toMatchObject({ error: "TwoFactorSignInExpired" })
    })

    it("the code page is a step of signing in: the sign-in heading and a link back to it", async () => {
      const { config } = await enrolled()
      const { jar } = await passwordStep(config)
      const res = await Auth(req("/auth/two-factor", { jar }), config)
      expect(res.status).toBe(200)
      const html = await res.text()
      expect(html).toContain("<h1>Sign in</h1>")
      expect(html).toContain("Two-factor sign-in")
      const back = /<a href="([^"]+)" data-back-to-sign-in>Back to sign in<\/a>/.exec(html)
      expect(back?.[1]).toBe(`${ORIGIN}/auth/signin`)
    })

    it("the pending state refuses a JSON caller with a typed error, and a missing CSRF proof", async () => {
      const { config, secret } = await enrolled()
      const { jar } = await passwordStep(config)
      const crossSite = await Auth(
        req("/auth/two-factor/verify", {
          form: { code: nextCode(secret) },
          jar,
          headers: { "sec-fetch-site": "cross-site" },
        }),
        config,
      )
      expect(crossSite.headers.get("set-cookie") ?? "").not.toContain(SESSION)
      const bad = await postJson(config, "/auth/two-factor/verify", jar, { code: ["1"] })
      expect(bad.status).toBe(400)
    })

    it("disabling needs a recent sign-in with a second factor", async () => {
      const { config, secret, jar: enrolledJar, events } = await enrolled()
      // The enrolling session signed in with a password only: not enough to turn it off.
      const refused = await postJson(config, "/auth/two-factor/disable", enrolledJar)
      expect(refused.status).toBe(403)
      expect(await refused.json()).toMatchObject({ error: "ReauthenticationRequired" })

      const { jar } = await passwordStep(config)
      await post(config, "/auth/two-factor/verify", jar, { code: nextCode(secret) })
      travel(601)
      const stale = await postJson(config, "/auth/two-factor/disable", jar)
      expect(stale.status).toBe(403)
      expect(await stale.json()).toMatchObject({ error: "ReauthenticationRequired" })

      const { jar: recent } = await passwordStep(config)
      await post(config, "/auth/two-factor/verify", recent, { code: laterCode(secret) })
      const regenerated = await postJson(config, "/auth/two-factor/regenerate", recent)
      expect(regenerated.status).toBe(200)
      expect(
        ((await regenerated.json()) as { recoveryCodes: string[] }).recoveryCodes,
      ).toHaveLength(10)
      const ok = await postJson(config, "/auth/two-factor/disable", recent)
      expect(ok.status).toBe(200)
      expect(events.map((e) => e.type)).toEqual([
        "enabled",
        "recovery-codes-regenerated",
        "disabled",
      ])

      // Off: the password alone signs in again.
      const { jar: plain } = await passwordStep(config)
      expect(plain.get(SESSION)).toBeDefined()
    })

    it("status, and signed-out settings calls are 401", async () => {
      const { config, jar } = await enrolled()
      const status = await Auth(req("/auth/two-factor/status", { jar }), config)
      expect(await status.json()).toEqual({
        enabled: true,
        pendingEnrollment: false,
        recoveryCodesLeft: 10,
        required: false,
      })
      const out = await postJson(config, "/auth/two-factor/enroll", new Jar())
      expect(out.status).toBe(401)
      const twice = await postJson(config, "/auth/two-factor/enroll", jar)
      expect(twice.status).toBe(409)
    })

    it("required and not enrolled: enrollment after the password, then the session and the codes", async () => {
      const { config, adapter } = twoFactorConfig(
        strategy,
        {},
        { required: (u) => u.email === "alice@example.com" },
      )
      await withAlice(adapter)
      const { res, jar } = await passwordStep(config)
      expect(locationOf(res).pathname).toBe("/auth/two-factor")
      expect(await sessionOf(config, jar)).toBeNull()
      const page = await Auth(req("/auth/two-factor", { jar }), config)
      const html = await page.text()
      expect(html).toContain("<svg")
      const secret = /data-two-factor-secret>([A-Z2-7]+)</.exec(html)?.[1]
      expect(secret).toBeDefined()
      const done = await post(config, "/auth/two-factor/confirm", jar, { code: totpCode(secret!) })
      expect(done.status).toBe(200)
      const codes = (await done.text()).match(/<li>([a-z2-9]{5}-[a-z2-9]{5})<\/li>/g)
      expect(codes).toHaveLength(10)
      expect(jar.get(SESSION)).toBeDefined()
      expect(await sessionOf(config, jar)).not.toBeNull()
      const stored = await adapter.getTwoFactor!("user-alice")
      expect(stored?.enabledAt).toBeInstanceOf(Date)
      // The database holds the sealed secret, never the secret.
      expect(JSON.stringify(stored)).not.toContain(secret!)
    })
  })
}

describe("two-factor configuration", () => {
  it("is a typed configuration error naming the adapter methods that are missing", async () => {
    const { MemoryAdapter } = await import("../../src/adapters/memory.js")
    const { getTwoFactor: _a, useRecoveryCode: _b, ...partial } = MemoryAdapter()
    const errors: unknown[] = []
    const { config } = twoFactorConfig("jwt", {
      adapter: partial,
      logger: { error: (e) => void errors.push(e), warn: () => {}, debug: () => {} },
    })
    const res = await Auth(req("/auth/session"), config)
    expect(res.status).toBe(500)
    const text = JSON.stringify(errors, (_k, v) =>
      v instanceof Error
        ? {
            type: (v as { type?: string }).type,
            message: v.message,
            errors: (v as { errors?: unknown }).errors,
          }
        : v,
    )
    expect(text).toContain("MissingAdapterMethods")
    expect(text).toContain("getTwoFactor, useRecoveryCode")
  })

  it("without an adapter it is MissingAdapter", async () => {
    const errors: unknown[] = []
    const { config } = twoFactorConfig("jwt", {
      adapter: undefined,
      logger: { error: (e) => void errors.push(e), warn: () => {}, debug: () => {} },
    })
    await Auth(req("/auth/session"), config)
    expect(
      JSON.stringify(errors, (_k, v) =>
        v instanceof Error
          ? {
              type: (v as { type?: string }).type,
              message: v.message,
              errors: (v as { errors?: unknown }).errors,
            }
          : v,
      ),
    ).toContain("MissingAdapter")
  })
})

describe("re-enrolling", () => {
  it("a new secret's code is accepted in the step the old one was used in", async () => {
    const { config, adapter } = twoFactorConfig("jwt")
    await withAlice(adapter)
    const { jar } = await enrollAlice(config)
    // Drop the enrollment (as disabling does) and enroll again within the same 30 s step.
    await adapter.deleteTwoFactor!("user-alice")
    const again = await postJson(config, "/auth/two-factor/enroll", jar)
    const { secret } = (await again.json()) as { secret: string }
    const confirm = await postJson(config, "/auth/two-factor/confirm", jar, {
      code: totpCode(secret),
    })
    expect(confirm.status).toBe(200)
  })
})

describe("the pending cookie", () => {
  it("is HttpOnly, SameSite=Lax, short-lived, and __Secure- with Secure on https", async () => {
    const { config, adapter } = twoFactorConfig("jwt")
    await withAlice(adapter)
    await enrollAlice(config)
    const { res } = await signInWithCredentials(Auth, config, new Jar(), undefined, SECURE_ORIGIN)
    const pending = setCookies(res).find((c) => c.name === `__Secure-${PENDING}`)
    expect(pending).toBeDefined()
    expect(pending!.attributes).toMatchObject({
      httponly: true,
      secure: true,
      samesite: "Lax",
      path: "/",
      "max-age": "300",
    })
    expect(setCookies(res).some((c) => c.name.includes(SESSION) && c.value !== "")).toBe(false)
  })
})
