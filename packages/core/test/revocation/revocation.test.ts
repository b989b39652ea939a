/**
 * Revocation of JWT sessions: `sid` and `auth_time` claims, sign-out revoking the `sid`, "sign
 * out everywhere", the three `session.revocation` modes, `absoluteMaxAge`, and what a read does
 * when the state cannot be reached. Run once with the state in the store, once in the adapter.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { Auth, listUserSessions, revokeSession, revokeUserSessions } from "../../src/index.js"
import { InvalidParameter } from "../../src/kernel/errors/errors.js"
import { defaultStore } from "../../src/store.js"
import { makeConfig, recordingLogger } from "../auth/helpers.js"
import {
  backends,
  copyJar,
  deadStore,
  jwtConfig,
  readSession,
  signIn,
  signOut,
  tokenOf,
} from "./helpers.js"

const DAY = 24 * 60 * 60

afterEach(() => {
  vi.useRealTimers()
})

/** Moves the clock (Date only: promises and timers run as usual). */
function travel(seconds: number) {
  if (!vi.isFakeTimers()) vi.useFakeTimers({ toFake: ["Date"], now: Date.now() })
  vi.setSystemTime(Date.now() + seconds * 1000)
}

describe.each(backends)("revocation with the state in the $name", ({ extra }) => {
  it("a session carries a sid and auth_time, stable across re-issues", async () => {
    const config = jwtConfig(extra(), { updateAge: 0 })
    const jar = await signIn(config)
    const first = await tokenOf(jar)
    expect(first.sid).toMatch(/^[0-9a-f-]{36}$/)
    expect(first.auth_time).toBe(first.iat)
    travel(5)
    expect(await readSession(config, jar)).not.toBeNull()
    const second = await tokenOf(jar)
    expect(second.iat).toBeGreaterThan(first.iat!)
    expect([second.sid, second.auth_time]).toEqual([first.sid, first.auth_time])
  })

  it("strict: a copy of the cookie is refused on the next read after sign-out", async () => {
    const config = jwtConfig(extra(), { revocation: "strict" })
    const jar = await signIn(config)
    const stolen = copyJar(jar)
    expect(await readSession(config, stolen)).not.toBeNull()
    await signOut(config, jar)
    expect(await readSession(config, stolen)).toBeNull()
    // ... and the refused cookie is cleared.
    expect(stolen.get("authjs.session-token")).toBeUndefined()
  })

  it("reissue (default): the copy works until its re-issue is due, then is refused", async () => {
    const config = jwtConfig(extra(), { updateAge: 60 })
    const jar = await signIn(config)
    const stolen = copyJar(jar)
    await signOut(config, jar)
    expect(await readSession(config, stolen)).not.toBeNull()
    travel(61)
    expect(await readSession(config, stolen)).toBeNull()
  })

  it("signing out with an older copy still outlasts a copy the thief re-issued since", async () => {
    const config = jwtConfig(extra(), { maxAge: 2 * DAY, updateAge: DAY / 2 })
    const jar = await signIn(config) // expires at day 2
    const stolen = copyJar(jar)
    travel(DAY)
    expect(await readSession(config, stolen)).not.toBeNull() // re-issued: expires at day 3
    await signOut(config, jar) // the victim's cookie still says day 2
    travel(DAY + DAY / 4) // day 2.25: the victim's token would have expired by now
    expect(await readSession(config, stolen)).toBeNull()
  })

  it("off: the copy keeps working after sign-out (Auth.js's behaviour)", async () => {
    const config = jwtConfig(extra(), { revocation: "off", updateAge: 0 })
    const jar = await signIn(config)
    const stolen = copyJar(jar)
    await signOut(config, jar)
    expect(await readSession(config, stolen)).not.toBeNull()
  })

  it("revokeUserSessions ends every session signed in before it, not those after", async () => {
    const config = jwtConfig(extra(), { revocation: "strict" })
    const laptop = await signIn(config)
    const phone = await signIn(config)
    travel(1)
    await revokeUserSessions(config, "user-alice")
    expect(await readSession(config, laptop)).toBeNull()
    expect(await readSession(config, phone)).toBeNull()
    const fresh = await signIn(config)
    expect(await readSession(config, fresh)).not.toBeNull()
  })

  it("POST /signout with everywhere=true signs every device out", async () => {
    const config = jwtConfig(extra(), { revocation: "strict" })
    const laptop = await signIn(config)
    const phone = await signIn(config)
    await signOut(config, laptop, true)
    expect(await readSession(config, phone)).toBeNull()
  })

  it("revokeSession(sid) ends that session only; listUserSessions lists the others", async () => {
    const config = jwtConfig(extra(), { revocation: "strict" })
    const laptop = await signIn(config)
    const phone = await signIn(config)
    const listed = await listUserSessions(config, "user-alice")
    const laptopSid = (await tokenOf(laptop)).sid!
    const phoneSid = (await tokenOf(phone)).sid!
    expect(listed.map((s) => s.sid).sort()).toEqual([laptopSid, phoneSid].sort())
    expect(listed[0]).toMatchObject({ userId: "user-alice" })
    expect(JSON.stringify(listed)).not.toContain(laptop.get("authjs.session-token")!)
    await revokeSession(config, phoneSid)
    expect(await readSession(config, phone)).toBeNull()
    expect(await readSession(config, laptop)).not.toBeNull()
    expect((await listUserSessions(config, "user-alice")).map((s) => s.sid)).toEqual([laptopSid])
  })

  it("absoluteMaxAge ends a session renewed every day, counted from sign-in", async () => {
    const config = jwtConfig(extra(), { updateAge: 0, maxAge: 2 * DAY, absoluteMaxAge: 3 * DAY })
    const jar = await signIn(config)
    for (let day = 1; day <= 2; day++) {
      travel(DAY)
      expect(await readSession(config, jar)).not.toBeNull()
    }
    // A re-issued token never outlives the cap.
    const token = await tokenOf(jar)
    expect(token.exp).toBe(token.auth_time! + 3 * DAY)
    travel(DAY)
    expect(await readSession(config, jar)).toBeNull()
  })

  it("a jwt callback that rebuilds the token cannot drop the session's identity", async () => {
    const config = jwtConfig(extra(), { revocation: "strict", updateAge: 0 })
    config.callbacks = { jwt: ({ token }) => ({ sub: token.sub, name: token.name }) }
    const jar = await signIn(config)
    const { sid } = await tokenOf(jar)
    expect(sid).toBeTypeOf("string")
    expect(await readSession(config, jar)).not.toBeNull()
    expect((await tokenOf(jar)).sid).toBe(sid)
    await revokeSession(config, sid!)
    expect(await readSession(config, jar)).toBeNull()
  })
})

describe("the server API", () => {
  it("refuses an empty, oversized or non-string id with InvalidParameter", async () => {
    const config = jwtConfig({})
    for (const bad of ["", "x".repeat(513), 42 as unknown as string]) {
      await expect(revokeSession(config, bad)).rejects.toBeInstanceOf(InvalidParameter)
      await expect(revokeUserSessions(config, bad)).rejects.toBeInstanceOf(InvalidParameter)
      await expect(listUserSessions(config, bad)).rejects.toBeInstanceOf(InvalidParameter)
    }
  })

  it("revokeUserSessions with database sessions deletes the user's rows", async () => {
    const adapter = MemoryAdapter()
    const config = makeConfig({ adapter, session: { strategy: "database" } })
    const user = await adapter.createUser!({
      id: "user-alice",
      email: "alice@example.com",
      emailVerified: null,
    })
    const jar = await signIn(config)
    expect(await readSession(config, jar)).not.toBeNull()
    await revokeUserSessions(config, user.id)
    expect(await readSession(config, jar)).toBeNull()
  })
})

describe("without a store or revocation-capable adapter", () => {
  it("a flood of rate-limit keys in the default store does not evict a revocation", async () => {
    const config = makeConfig({ session: { strategy: "jwt", revocation: "strict" } })
    delete config.store // the process's default memory store
    const jar = await signIn(config)
    const stolen = copyJar(jar)
    await signOut(config, jar)
    const flood = defaultStore(config.secret as string)
    for (let i = 0; i < 10_001; i++) flood.hit(`flood:${i}`, 60_000, 1, { strangerKeyed: true })
    expect(await readSession(config, stolen)).toBeNull()
  })
})

describe("when the revocation state cannot be reached", () => {
  it("closed (default): no session for the request, the cookie kept, the error logged", async () => {
    const { logger, calls } = recordingLogger()
    const store = deadStore()
    const config = jwtConfig({ logger }, { revocation: "strict" })
    const jar = await signIn(config)
    config.store = store // the store goes down after sign-in (same config object: not re-resolved)
    const broken = jwtConfig({ logger, store }, { revocation: "strict" })
    const res = await Auth(
      new Request("http://app.example.com/auth/session", { headers: { cookie: jar.header() } }),
      broken,
    )
    expect(await res.json()).toBeNull()
    expect(res.headers.getSetCookie()).toEqual([])
    expect(
      calls.some((c) => c.level === "error" && (c.args[0] as Error).name === "StoreError"),
    ).toBe(true)
  })

  it("open: the token is trusted, the error logged", async () => {
    const jar = await signIn(jwtConfig({}, { revocation: "strict" }))
    const config = jwtConfig(
      { store: deadStore() },
      { revocation: "strict", revocationFailure: "open" },
    )
    expect(await readSession(config, jar)).not.toBeNull()
  })

  it("sign-in fails closed too: a session that could not learn the user's version is refused", async () => {
    const config = jwtConfig({ store: deadStore(), providers: undefined as never })
    config.providers = jwtConfig({}).providers
    const { jar } = { jar: await signIn(config) }
    expect(jar.get("authjs.session-token")).toBeUndefined()
  })
})
