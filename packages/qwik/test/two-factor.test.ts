/**
 * The two-factor loader and actions against the real core (memory adapter): enrollment and its
 * first code from `<Form>` posts, the step-up refusal carrying the sign-in URL, and the verify
 * action ending a pending sign-in in a navigation.
 */
import { Auth, type AuthConfig } from "@latchkey/core"
import { MemoryAdapter } from "@latchkey/core/adapters/memory"
import { withPlainProviders } from "@latchkey/core/plain-providers"
import Credentials from "@latchkey/core/providers/credentials"
import { MemoryStore } from "@latchkey/core/store"
import { TOTP } from "otpauth"
import { describe, expect, it } from "vitest"
import { Jar, req } from "../../core/test/auth/helpers.js"
import { CONFIG_KEY } from "../src/shared-map.js"
import {
  loadTwoFactorStatus,
  twoFactorSettingsAction,
  verifyTwoFactorAction,
} from "../src/two-factor-server.js"
import { fakeEvent, ORIGIN, outcome, Redirect } from "./fake-event.js"

const SECRET = "a-test-secret-that-is-at-least-32-bytes-long!!"

async function setup() {
  const adapter = MemoryAdapter()
  const user = await adapter.createUser!({
    id: "u1",
    email: "alice@example.com",
    name: "Alice",
    emailVerified: null,
  })
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter,
    store: new MemoryStore(),
    session: { strategy: "jwt" },
    twoFactor: { issuer: "Latchkey Test" },
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    providers: [
      Credentials({
        credentials: { username: {}, password: { type: "password" } },
        authorize: (c) => (c.password === "right" ? user : null),
      }),
    ],
  }
  // The plain twoFactor options, as QwikAuth$'s config pipeline hands them to the handlers.
  return { config: (await withPlainProviders(config)) as AuthConfig }
}

/** Signs in with the password through the core (a browser on ORIGIN), answering the jar. */
async function passwordSignIn(config: AuthConfig): Promise<Jar> {
  const jar = new Jar()
  const res = await Auth(
    req("/auth/callback/credentials", {
      form: { username: "alice", password: "right" },
      jar,
      origin: ORIGIN,
    }),
    config,
  )
  jar.take(res)
  return jar
}

function eventFor(config: AuthConfig, jar: Jar, path = "/account/two-factor/") {
  const fake = fakeEvent(path, { cookie: jar.header() })
  fake.event.sharedMap.set(CONFIG_KEY, Promise.resolve(config))
  return fake
}

/** The cookies an action set, taken into the browser's jar (as a browser takes `Set-Cookie`). */
function adopt(jar: Jar, cookies: ReadonlyMap<string, string>): void {
  for (const [name, value] of cookies) jar.cookies.set(name, value)
}

function codeOf(secret: string, offsetMs = 0): string {
  const totp = new TOTP({ secret, digits: 6, period: 30 })
  return totp.generate({ timestamp: Date.now() + offsetMs })
}

describe("two-factor actions", () => {
  it("enrolls from a form post, confirms with the first code, and the loader shows it on", async () => {
    const { config } = await setup()
    const jar = await passwordSignIn(config)
    const before = await loadTwoFactorStatus(eventFor(config, jar).event)
    expect(before).toMatchObject({ enabled: false })

    const enroll = eventFor(config, jar)
    const enrollment = (await twoFactorSettingsAction(enroll.event as never, "enroll", {})) as {
      secret: string
      qrSvg: string
      uri: string
    }
    expect(enrollment.uri).toMatch(/^otpauth:\/\/totp\//)
    expect(enrollment.qrSvg).toMatch(/^<svg/)

    const wrong = (await twoFactorSettingsAction(eventFor(config, jar).event as never, "confirm", {
      code: codeOf(enrollment.secret) === "000000" ? "111111" : "000000",
    })) as { failed: boolean; error: { type: string } }
    expect(wrong).toMatchObject({
      failed: true,
      status: 400,
      error: { type: "InvalidTwoFactorCode" },
    })

    const confirm = eventFor(config, jar)
    const confirmed = (await twoFactorSettingsAction(confirm.event as never, "confirm", {
      code: codeOf(enrollment.secret),
    })) as { recoveryCodes: string[] }
    expect(confirmed.recoveryCodes).toHaveLength(10)
    // Turning it on moved the account's state: the browser keeps the session re-issued for it.
    adopt(jar, confirm.cookies)
    expect(await loadTwoFactorStatus(eventFor(config, jar).event)).toMatchObject({
      enabled: true,
      recoveryCodesLeft: 10,
    })

    // Turning it off needs a sign-in with the second factor: the failure names where to go.
    const refused = (await twoFactorSettingsAction(
      eventFor(config, jar).event as never,
      "disable",
      {},
    )) as unknown as { status: number; error: { type: string }; signInUrl: string }
    expect(refused).toMatchObject({ status: 403, error: { type: "ReauthenticationRequired" } })
    expect(refused.signInUrl).toBe("/auth/signin?callbackUrl=%2Faccount%2Ftwo-factor%2F&reauth=1")

    // Signing in again: password, then the verify action (an app's own code page).
    const second = await passwordSignIn(config)
    expect(second.get("latchkey.two-factor")).toBeDefined()
    expect(await loadTwoFactorStatus(eventFor(config, second).event)).toBeNull()
    const verify = eventFor(config, second, "/two-factor/")
    const thrown = await outcome(
      verifyTwoFactorAction(verify.event as never, { code: codeOf(enrollment.secret, 30_000) }),
    )
    expect(thrown).toEqual(new Redirect(303, "/"))
    expect(verify.cookies.get("authjs.session-token")).toBeDefined()
  })

  it("a wrong code on the verify action goes back to the code page with the error", async () => {
    const { config } = await setup()
    const jar = await passwordSignIn(config)
    const { secret } = (await twoFactorSettingsAction(
      eventFor(config, jar).event as never,
      "enroll",
      {},
    )) as {
      secret: string
    }
    await twoFactorSettingsAction(eventFor(config, jar).event as never, "confirm", {
      code: codeOf(secret),
    })
    const pending = await passwordSignIn(config)
    const thrown = (await outcome(
      verifyTwoFactorAction(eventFor(config, pending, "/two-factor/").event as never, {
        code: "12345x",
      }),
    )) as Redirect
    expect(thrown.status).toBe(303)
    expect(thrown.location).toBe("/auth/two-factor?error=InvalidTwoFactorCode")
  })

  it("signed out, the loader is null and the settings fail with the sign-in URL", async () => {
    const { config } = await setup()
    const jar = new Jar()
    expect(await loadTwoFactorStatus(eventFor(config, jar).event)).toBeNull()
    const failed = (await twoFactorSettingsAction(
      eventFor(config, jar).event as never,
      "enroll",
      {},
    )) as unknown as {
      status: number
      signInUrl: string
    }
    expect(failed.status).toBe(401)
    expect(failed.signInUrl).toBe("/auth/signin?callbackUrl=%2Faccount%2Ftwo-factor%2F")
  })
})
