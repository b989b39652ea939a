/**
 * Diagnostics a person can act on, at `Auth()` level: wrong passwords are failed attempts (warn,
 * never the password), user events (signed out, revoked) are debug lines and never warnings, a store outage is not a lockout (503 + Retry-After), a lockout says how
 * long, warnings carry a sentence and appear once per cause, a host that is not AUTH_URL's is
 * named, and the missing-secret error says how to make one.
 */
import { readFileSync } from "node:fs"
import { afterEach, describe, expect, it, vi } from "vitest"
import { Account } from "../../src/account.js"
import { adapterFeature } from "../../src/features/adapter/index.js"
import { passwordFeature } from "../../src/features/password/index.js"
import { twoFactorFeature } from "../../src/features/two-factor/index.js"
import { Auth } from "../../src/index.js"
import { StoreError } from "../../src/kernel/errors/errors.js"
import {
  isUserEvent,
  WARNING_TEXT as KERNEL_TEXTS,
  type LogCode,
  warningText,
} from "../../src/kernel/errors/warnings.js"
import Credentials from "../../src/providers/credentials.js"
import { MemoryStore, type Store } from "../../src/store.js"
import type { AuthConfig } from "../../src/types.js"
import {
  copyJar,
  deadStore,
  jwtConfig,
  readSession,
  signIn,
  signOut,
} from "../revocation/helpers.js"
import { Jar, makeConfig, recordingLogger, req, signInWithCredentials } from "./helpers.js"

/** Every code's sentence: the kernel's and those of the features that log codes of their own. */
const FEATURES_WITH_TEXTS = [adapterFeature, passwordFeature, twoFactorFeature]
const WARNING_TEXT: Readonly<Record<string, string>> = Object.assign(
  {},
  KERNEL_TEXTS,
  ...FEATURES_WITH_TEXTS.map((feature) => feature.logTexts),
)

afterEach(() => {
  vi.unstubAllEnvs()
  vi.restoreAllMocks()
})

const USER_EVENT_CODES: readonly LogCode[] = [
  "session-revoked",
  "reauthentication-required",
  "account-refused",
  "password-refused",
]

const wrong = { username: "alice", password: "not-the-password-8c1f" }

describe("credentials refusals", () => {
  it("a wrong password is one warn line with the code, never an error, never the password", async () => {
    const rec = recordingLogger()
    const config = makeConfig({ logger: rec.logger })
    const { res } = await signInWithCredentials(Auth, config, new Jar(), wrong)
    expect(new URL(res.headers.get("location")!).searchParams.get("error")).toBe(
      "CredentialsSignin",
    )
    expect(rec.calls.filter((c) => c.level === "error")).toEqual([])
    const warns = rec.calls.filter((c) => c.level === "warn")
    expect(warns.map((c) => c.args[0])).toEqual(["credentials-refused"])
    expect(String(warns[0]!.args[1])).toMatch(/provider "credentials", code: credentials/)
    expect(JSON.stringify(rec.calls)).not.toContain(wrong.password)
  })

  it("every wrong password is logged, not only the first: a security log needs each attempt", async () => {
    const rec = recordingLogger()
    const config = makeConfig({ logger: rec.logger })
    for (let i = 0; i < 3; i++) await signInWithCredentials(Auth, config, new Jar(), wrong)
    const warns = rec.calls.filter((c) => c.level === "warn" && c.args[0] === "credentials-refused")
    expect(warns).toHaveLength(3)
  })

  it("an app's CredentialsSignin subclass code is named in the warning", async () => {
    const { CredentialsSignin } = await import("../../src/kernel/errors/errors.js")
    class Locked extends CredentialsSignin {
      override code = "account_locked"
    }
    const rec = recordingLogger()
    const config = makeConfig({
      logger: rec.logger,
      providers: [
        Credentials({
          authorize: () => {
            throw new Locked()
          },
        }),
      ],
    })
    await signInWithCredentials(Auth, config, new Jar(), wrong)
    expect(String(rec.calls.find((c) => c.level === "warn")!.args[1])).toContain(
      "code: account_locked",
    )
  })
})

describe("Retry-After and the store outage", () => {
  const limited = (store: Store, logger = recordingLogger().logger): AuthConfig =>
    makeConfig({
      logger,
      store,
      session: { revocation: "off" },
      providers: [
        Credentials({
          authorize: () => null,
          rateLimit: { perAccount: { limit: 1, windowMs: 120_000 }, perIp: false },
        }),
      ],
    })
  const json = { accept: "application/json" }

  it("a JSON caller over the limit gets 429 with Retry-After of the window's remaining seconds", async () => {
    const config = limited(new MemoryStore())
    await Auth(req("/auth/callback/credentials", { form: wrong, headers: json }), config)
    const res = await Auth(
      req("/auth/callback/credentials", { form: wrong, headers: json }),
      config,
    )
    expect(res.status).toBe(429)
    const seconds = Number(res.headers.get("retry-after"))
    expect(seconds).toBeGreaterThan(100)
    expect(seconds).toBeLessThanOrEqual(120)
    const body = (await res.json()) as { error: { type: string } }
    expect(body.error.type).toBe("RateLimited")
  })

  it("a JSON caller during a store outage gets 503 StoreError with Retry-After, and one error log naming the store and operation", async () => {
    const rec = recordingLogger()
    class RefusingStore extends MemoryStore {
      override hit(): never {
        throw new StoreError("Redis refused the store's hit command")
      }
    }
    const broken = new RefusingStore()
    const res = await Auth(
      req("/auth/callback/credentials", { form: wrong, headers: json }),
      limited(broken, rec.logger),
    )
    expect(res.status).toBe(503)
    expect(res.headers.get("retry-after")).toBe("30")
    const body = (await res.json()) as { error: { type: string; message: string } }
    expect(body.error.type).toBe("StoreError")
    expect(body.error.message).toContain("temporarily unavailable")
    const errors = rec.calls.filter((c) => c.level === "error").map((c) => c.args[0] as Error)
    expect(errors.map((e) => e.message)).toEqual(["Redis refused the store's hit command"])
  })

  it("a store that throws plain errors is named by its class in the log", async () => {
    class FlakyStore extends MemoryStore {
      override hit(): never {
        throw new Error("socket closed")
      }
    }
    const rec = recordingLogger()
    await Auth(
      req("/auth/callback/credentials", { form: wrong }),
      limited(new FlakyStore(), rec.logger),
    )
    const [error] = rec.calls.filter((c) => c.level === "error").map((c) => c.args[0] as Error)
    expect(error).toBeInstanceOf(StoreError)
    expect(error!.message).toBe("FlakyStore could not answer the rate limit's hit command")
  })

  it("the error page repeats only a sane retryAfter, and only for RateLimited", async () => {
    const config = makeConfig()
    const page = (query: string) => Auth(req(`/auth/error?${query}`), config)
    expect((await page("error=RateLimited&retryAfter=90")).headers.get("retry-after")).toBe("90")
    expect((await page("error=RateLimited&retryAfter=1e9")).headers.get("retry-after")).toBeNull()
    expect((await page("error=AccessDenied&retryAfter=90")).headers.get("retry-after")).toBeNull()
    const outage = await page("error=StoreTimeout")
    expect(outage.status).toBe(503)
    expect(outage.headers.get("retry-after")).toBe("30")
  })
})

describe("warnings: once per cause, with a sentence", () => {
  it("experimental-webauthn is logged once however many times the config is rebuilt", async () => {
    const consoleWarn = vi.spyOn(console, "warn").mockImplementation(() => {})
    // No adapter: the config is refused too (logged as an error), which is not what this is about.
    vi.spyOn(console, "error").mockImplementation(() => {})
    const { default: WebAuthn } = await import("../../src/providers/webauthn.js")
    for (let i = 0; i < 11; i++) {
      // A fresh config object each time, as an app building it per request does.
      const config = makeConfig({
        experimental: { enableWebAuthn: true },
        logger: {},
        providers: [WebAuthn({})],
      })
      await Auth(req("/auth/session"), config)
    }
    const lines = consoleWarn.mock.calls.map((c) => String(c[0]))
    const webauthn = lines.filter((l) => l.includes("[experimental-webauthn]"))
    expect(webauthn).toHaveLength(1)
    expect(webauthn[0]).toMatch(/\[experimental-webauthn\] Passkeys .* are experimental/)
  })

  it("session-revoked: a user event, at debug with what it means, never a warning", async () => {
    const rec = recordingLogger()
    const config = jwtConfig(
      { store: new MemoryStore(), logger: rec.logger },
      { revocation: "strict" },
    )
    const jar = await signIn(config)
    const stolen = copyJar(jar)
    await signOut(config, jar)
    for (let i = 0; i < 3; i++) expect(await readSession(config, copyJar(stolen))).toBeNull()
    expect(rec.warnings()).toEqual([])
    const revoked = rec.calls.filter(
      (c) => c.level === "debug" && String(c.args[0]).startsWith("[session-revoked]"),
    )
    expect(revoked).toHaveLength(3)
    expect(String(revoked[0]!.args[0])).toMatch(
      /^\[session-revoked\] A revoked or over-age session .*this session signed out/,
    )
  })

  it("a feature's code is told with the feature's sentence, and named (never 'undefined') without it", () => {
    const texts = { ...KERNEL_TEXTS, ...twoFactorFeature.logTexts }
    expect(warningText("two-factor-refused", "(reason: wrong)", texts)).toBe(
      `${twoFactorFeature.logTexts!["two-factor-refused"]} (reason: wrong)`,
    )
    expect(warningText("two-factor-refused", "(reason: wrong)")).toBe(
      "(two-factor-refused) (reason: wrong)",
    )
  })

  it("every code has a sentence, and the log-codes page lists exactly these codes", () => {
    const page = new URL("../../../../docs/site/pages/reference/log-codes.md", import.meta.url)
    const listed = [...readFileSync(page, "utf8").matchAll(/^\| `([a-z-]+)` +\|/gm)]
      .map((m) => m[1])
      .sort()
    expect(listed).toEqual(Object.keys(WARNING_TEXT).sort())
    for (const text of Object.values(WARNING_TEXT)) expect(text).toMatch(/^[A-Z`].{30,}\.$/)
  })
})

describe("user events are not warnings", () => {
  // The visit of the issue: a signed-out browser opens an account page, whose loader asks
  // GET /auth/account. Every visit of the kind printed `[latchkey][warn][account-refused]`.
  // The account API is on, as the Qwik bindings always turn it on.
  const signedOutAccountVisit = (config: AuthConfig) =>
    Auth(req("/auth/account", { headers: { accept: "application/json" } }), {
      ...config,
      account: Account(),
    })

  it("a signed-out GET /auth/account is a debug line naming SessionRequired, no warning", async () => {
    const rec = recordingLogger()
    const res = await signedOutAccountVisit(makeConfig({ logger: rec.logger }))
    expect(res.status).toBe(401)
    expect(rec.warnings()).toEqual([])
    expect(rec.calls.filter((c) => c.level === "error")).toEqual([])
    const events = rec.calls.filter((c) => c.level === "debug").map((c) => String(c.args[0]))
    expect(events.filter((l) => l.startsWith("[account-refused]"))).toEqual([
      expect.stringContaining("SessionRequired"),
    ])
  })

  it("with the console logger and debug off, the visit prints nothing", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {})
    const debug = vi.spyOn(console, "debug").mockImplementation(() => {})
    const { logger: _recording, ...config } = makeConfig()
    for (let i = 0; i < 3; i++) await signedOutAccountVisit(config)
    expect(warn).not.toHaveBeenCalled()
    expect(debug).not.toHaveBeenCalled()
  })

  it("every user-event code has its sentence, and none is a warning code", () => {
    for (const code of USER_EVENT_CODES) {
      expect(isUserEvent(code)).toBe(true)
      expect(WARNING_TEXT[code]).toMatch(/A user event, logged at debug\.$/)
    }
    const warnings = Object.keys(WARNING_TEXT).filter((c) => !isUserEvent(c as LogCode))
    for (const code of warnings) expect(WARNING_TEXT[code as LogCode]).not.toMatch(/user event/)
  })
})

describe("host mismatch", () => {
  const config = (logger = recordingLogger().logger) =>
    makeConfig({ url: "http://localhost:5173", trustHost: undefined, logger })

  it("a request to 127.0.0.1 when AUTH_URL is localhost: one warning naming both", async () => {
    const rec = recordingLogger()
    const cfg = config(rec.logger)
    for (let i = 0; i < 3; i++) {
      await Auth(req("/auth/session", { origin: "http://127.0.0.1:5173" }), cfg)
    }
    const warns = rec.calls.filter((c) => c.args[0] === "host-mismatch")
    expect(warns).toHaveLength(1)
    expect(String(warns[0]!.args[1])).toContain(
      "(request to http://127.0.0.1:5173, AUTH_URL is http://localhost:5173)",
    )
  })

  it("in development the built-in sign-in page says so; in production it does not", async () => {
    vi.stubEnv("NODE_ENV", "development")
    const cfg = config()
    const dev = await (
      await Auth(req("/auth/signin", { origin: "http://127.0.0.1:5173" }), cfg)
    ).text()
    expect(dev).toContain(
      "this page was opened at http://127.0.0.1:5173, but AUTH_URL is http://localhost:5173",
    )
    vi.stubEnv("NODE_ENV", "production")
    const prod = await (
      await Auth(req("/auth/signin", { origin: "http://127.0.0.1:5173" }), cfg)
    ).text()
    expect(prod).not.toContain("AUTH_URL")
  })

  it("no warning and no notice on AUTH_URL's own origin", async () => {
    const rec = recordingLogger()
    const cfg = config(rec.logger)
    const page = await (
      await Auth(req("/auth/signin", { origin: "http://localhost:5173" }), cfg)
    ).text()
    expect(page).not.toContain("Development notice")
    expect(rec.warnings()).not.toContain("host-mismatch")
  })
})

describe("configuration messages", () => {
  it("MissingSecret suggests npx latchkey secret", async () => {
    const rec = recordingLogger()
    await Auth(req("/auth/session"), makeConfig({ secret: undefined, logger: rec.logger }))
    const [error] = rec.calls.filter((c) => c.level === "error").map((c) => c.args[0] as Error)
    expect(error!.message).toContain("[MissingSecret]")
    expect(error!.message).toContain("npx latchkey secret")
  })

  it("a store outage is never reported as RateLimited", async () => {
    const res = await Auth(
      req("/auth/callback/credentials", { form: wrong }),
      makeConfig({ store: deadStore(), session: { revocation: "off" } }),
    )
    expect(new URL(res.headers.get("location")!).searchParams.get("error")).toBe("StoreError")
  })
})
