/**
 * Recent sign-in: the verdict rule, `requireRecentAuth` at `Auth()` level (JWT sessions), and
 * a session whose sign-in time is unknown (issued by Auth.js) staying not-recent through
 * re-issues while `absoluteMaxAge` still ends it.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { recentAuthVerdict, requireRecentAuth } from "../../src/index.js"
import { ReauthenticationRequired, SessionRequired } from "../../src/kernel/errors/errors.js"
import { encode } from "../../src/kernel/token/jwt.js"
import { Jar, req, SECRET } from "../auth/helpers.js"
import { jwtConfig, readSession, signIn, tokenOf } from "../revocation/helpers.js"

afterEach(() => {
  vi.useRealTimers()
})

function travel(seconds: number) {
  if (!vi.isFakeTimers()) vi.useFakeTimers({ toFake: ["Date"], now: Date.now() })
  vi.setSystemTime(Date.now() + seconds * 1000)
}

const DAY = 24 * 60 * 60

describe("recentAuthVerdict", () => {
  const now = 1_800_000_000
  it("is recent within maxAge, stale after it, unknown without a sign-in time", () => {
    expect(recentAuthVerdict({ authTime: now - 600 }, { maxAge: 600 }, now)).toEqual({
      recent: true,
    })
    expect(recentAuthVerdict({ authTime: now - 601 }, { maxAge: 600 }, now)).toEqual({
      recent: false,
      reason: "stale",
    })
    expect(recentAuthVerdict({}, { maxAge: 600 }, now)).toEqual({
      recent: false,
      reason: "unknown",
    })
    expect(recentAuthVerdict({ authTime: Number.NaN }, { maxAge: 600 }, now)).toMatchObject({
      reason: "unknown",
    })
  })

  it("asks every factor to be present in amr", () => {
    const policy = { maxAge: 600, factors: ["pwd", "otp"] }
    expect(recentAuthVerdict({ authTime: now, amr: ["pwd", "otp"] }, policy, now).recent).toBe(true)
    expect(recentAuthVerdict({ authTime: now, amr: ["pwd"] }, policy, now)).toEqual({
      recent: false,
      reason: "missing-factor",
    })
    expect(recentAuthVerdict({ authTime: now }, policy, now)).toMatchObject({
      reason: "missing-factor",
    })
    // Stale wins over a missing factor: signing in again with the factor fixes both.
    expect(recentAuthVerdict({ authTime: now - 700, amr: [] }, policy, now)).toMatchObject({
      reason: "stale",
    })
  })
})

describe("requireRecentAuth (JWT sessions)", () => {
  const request = (jar: Jar) => req("/dashboard", { jar })

  it("resolves the user right after sign-in, refuses after recentAuthMaxAge", async () => {
    const config = jwtConfig({}, { recentAuthMaxAge: 300 })
    const jar = await signIn(config)
    const fresh = await requireRecentAuth(request(jar), config)
    expect(fresh.userId).toBe("user-alice")
    expect(fresh.authTime).toBe((await tokenOf(jar)).auth_time)
    travel(301)
    const error = await requireRecentAuth(request(jar), config).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ReauthenticationRequired)
    expect(error).toMatchObject({
      type: "ReauthenticationRequired",
      status: 403,
      clientSafe: true,
      details: { reason: "stale" },
    })
    // A per-call maxAge overrides the config's.
    expect((await requireRecentAuth(request(jar), config, { maxAge: DAY })).userId).toBe(
      "user-alice",
    )
  })

  it("defaults to 600 seconds", async () => {
    const config = jwtConfig({})
    const jar = await signIn(config)
    travel(599)
    await expect(requireRecentAuth(request(jar), config)).resolves.toBeTruthy()
    travel(2)
    await expect(requireRecentAuth(request(jar), config)).rejects.toBeInstanceOf(
      ReauthenticationRequired,
    )
  })

  it("refuses a missing factor, and a signed-out request with SessionRequired", async () => {
    const config = jwtConfig({})
    const jar = await signIn(config)
    await expect(
      requireRecentAuth(request(jar), config, { factors: ["otp"] }),
    ).rejects.toMatchObject({ details: { reason: "missing-factor" } })
    await expect(requireRecentAuth(request(new Jar()), config)).rejects.toBeInstanceOf(
      SessionRequired,
    )
  })
})

describe("a session without auth_time (issued by Auth.js)", () => {
  async function authjsJar(claims: Record<string, unknown> = {}): Promise<Jar> {
    const jar = new Jar()
    const token = await encode({
      token: { sub: "user-alice", name: "Alice", email: "alice@example.com", ...claims },
      secret: SECRET,
      salt: "authjs.session-token",
    })
    jar.cookies.set("authjs.session-token", token)
    return jar
  }

  it("is never recent, and stays so when re-issued; absoluteMaxAge counts from the re-issue", async () => {
    const config = jwtConfig({}, { updateAge: 0, absoluteMaxAge: 3 * DAY, maxAge: 2 * DAY })
    const jar = await authjsJar()
    await expect(requireRecentAuth(request(jar), config)).rejects.toMatchObject({
      details: { reason: "unknown" },
    })
    expect(await readSession(config, jar)).not.toBeNull()
    const reissued = await tokenOf(jar)
    expect(reissued.auth_time).toBeUndefined()
    expect(reissued.sst).toBeTypeOf("number")
    expect(reissued.sid).toBeTypeOf("string")
    await expect(requireRecentAuth(request(jar), config)).rejects.toMatchObject({
      details: { reason: "unknown" },
    })
    for (let day = 1; day <= 2; day++) {
      travel(DAY)
      expect(await readSession(config, jar)).not.toBeNull()
      expect((await tokenOf(jar)).sst).toBe(reissued.sst)
    }
    expect((await tokenOf(jar)).exp).toBe(reissued.sst! + 3 * DAY)
    travel(DAY)
    expect(await readSession(config, jar)).toBeNull()
  })

  function request(jar: Jar) {
    return req("/dashboard", { jar })
  }
})

describe("amr", () => {
  it("is carried across re-issues like auth_time, even past a jwt callback that drops it", async () => {
    const config = jwtConfig({}, { updateAge: 0 })
    let first = true
    config.callbacks = {
      jwt: ({ token }) => {
        if (first) {
          first = false
          return { ...token, amr: ["pwd", "otp"] }
        }
        return { sub: token.sub, name: token.name }
      },
    }
    const jar = await signIn(config)
    const signedIn = await tokenOf(jar)
    expect(signedIn.amr).toEqual(["pwd", "otp"])
    expect(await readSession(config, jar)).not.toBeNull()
    const reissued = await tokenOf(jar)
    expect(reissued.amr).toEqual(["pwd", "otp"])
    expect(reissued.auth_time).toBe(signedIn.auth_time)
    const facts = await requireRecentAuth(req("/x", { jar }), config, { factors: ["otp"] })
    expect(facts.amr).toEqual(["pwd", "otp"])
  })
})
