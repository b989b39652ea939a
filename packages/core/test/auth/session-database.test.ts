import { afterEach, describe, expect, it, vi } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { Auth, getSession } from "../../src/index.js"
import type { Adapter } from "../../src/kernel/types/adapters.js"
import {
  alice,
  Jar,
  makeConfig,
  recordingLogger,
  req,
  setCookies,
  signInWithCredentials,
} from "./helpers.js"

const NAME = "authjs.session-token"
afterEach(() => vi.useRealTimers())

async function setup(overrides: Parameters<typeof makeConfig>[0] = {}) {
  const adapter = MemoryAdapter()
  await adapter.createUser!({ ...alice, email: alice.email, emailVerified: null })
  const calls: string[] = []
  const spied = new Proxy(adapter, {
    get(target, prop: string) {
      const value = (target as Record<string, unknown>)[prop]
      if (typeof value !== "function") return value
      return (...args: unknown[]) => {
        calls.push(prop)
        return (value as (...a: unknown[]) => unknown).apply(target, args)
      }
    },
  }) as Adapter
  const config = makeConfig({ adapter: spied, ...overrides })
  return { adapter, config, calls }
}

describe("database sessions", () => {
  it("credentials + database: creates a session row, cookie holds a 256-bit base64url token", async () => {
    const { adapter, config } = await setup()
    const { res, jar } = await signInWithCredentials(Auth, config)
    expect(res.status).toBe(303)
    const token = jar.get(NAME)!
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    const found = await adapter.getSessionAndUser!(token)
    expect(found?.user.id).toBe("user-alice")
    const cookie = setCookies(res).find((c) => c.name === NAME)!
    expect(Date.parse(String(cookie.attributes.expires))).toBe(
      found!.session.expires.valueOf() - (found!.session.expires.valueOf() % 1000),
    )
  })

  it("never hands the session callback the token: a callback that spreads its input leaks nothing", async () => {
    const seen: unknown[] = []
    const { config } = await setup({
      callbacks: {
        // The demo's old callback, and Auth.js examples: return what you were given, enriched.
        session: (params) => {
          seen.push(params)
          return { ...params.session, extra: true } as never
        },
      },
    })
    const { jar } = await signInWithCredentials(Auth, config)
    const token = jar.get(NAME)!
    const res = await Auth(req("/auth/session", { jar }), config)
    const body = await res.text()
    expect(body).toContain('"extra":true')
    expect(body).not.toContain(token)
    expect(JSON.stringify(seen)).not.toContain(token)
    const viaGetSession = await getSession(req("/auth/session", { jar }), config)
    expect(JSON.stringify(viaGetSession.session)).not.toContain(token)
  })

  it("reads with one getSessionAndUser and writes nothing inside updateAge", async () => {
    const { config, calls } = await setup()
    const { jar } = await signInWithCredentials(Auth, config)
    calls.length = 0
    const res = await Auth(req("/auth/session", { jar }), config)
    expect(await res.json()).toMatchObject({ user: { name: "Alice", email: "alice@example.com" } })
    expect(calls).toEqual(["getSessionAndUser"])
    expect(res.headers.getSetCookie()).toEqual([])
  })

  it("slides the expiry at most once per updateAge", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(new Date("2030-01-01T00:00:00Z"))
    const { adapter, config, calls } = await setup({ session: { updateAge: 3600 } })
    const { jar } = await signInWithCredentials(Auth, config)
    const token = jar.get(NAME)!
    vi.setSystemTime(new Date("2030-01-01T01:00:00Z"))
    calls.length = 0
    const res = await Auth(req("/auth/session", { jar }), config)
    expect(calls).toEqual(["getSessionAndUser", "updateSession"])
    expect(setCookies(res).map((c) => c.name)).toEqual([NAME])
    const body = (await res.json()) as { expires: string }
    expect(body.expires).toBe("2030-01-31T01:00:00.000Z")
    expect((await adapter.getSessionAndUser!(token))!.session.expires.toISOString()).toBe(
      body.expires,
    )
    calls.length = 0
    await Auth(req("/auth/session", { jar }), config)
    expect(calls).toEqual(["getSessionAndUser"])
  })

  it("deletes an expired session and clears the cookie", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(new Date("2030-01-01T00:00:00Z"))
    const { adapter, config } = await setup({ session: { maxAge: 60 } })
    const { jar } = await signInWithCredentials(Auth, config)
    const token = jar.get(NAME)!
    vi.setSystemTime(new Date("2030-01-01T00:02:00Z"))
    const res = await Auth(req("/auth/session", { jar }), config)
    expect(await res.json()).toBeNull()
    expect(setCookies(res)[0]!.attributes["max-age"]).toBe("0")
    expect(await adapter.getSessionAndUser!(token)).toBeNull()
  })

  it("a deleted row (signed out elsewhere) is a user event: null, cookie cleared, no warning", async () => {
    const rec = recordingLogger()
    const { adapter, config } = await setup({ logger: rec.logger })
    const { jar } = await signInWithCredentials(Auth, config)
    await adapter.deleteSession!(jar.get(NAME)!)
    const r = await getSession(req("/", { jar }), config)
    expect(r.session).toBeNull()
    expect(r.cookies[0]).toMatchObject({ name: NAME, value: "" })
    expect(rec.warnings()).toEqual([])
    const events = rec.calls.filter((c) => c.level === "debug").map((c) => String(c.args[0]))
    expect(events).toContainEqual(expect.stringMatching(/^\[session-revoked\] .*row is gone/))
  })

  it("a failing database keeps the cookie and logs SessionTokenError", async () => {
    const rec = recordingLogger()
    const { config } = await setup({ logger: rec.logger })
    const { jar } = await signInWithCredentials(Auth, config)
    const broken = makeConfig({
      logger: rec.logger,
      adapter: {
        ...MemoryAdapter(),
        getSessionAndUser: () => Promise.reject(new Error("db down")),
      },
    })
    const r = await getSession(req("/", { jar }), broken)
    expect(r).toEqual({ session: null, cookies: [] })
    expect(
      rec.calls.some(
        (c) => c.level === "error" && (c.args[0] as Error).name === "SessionTokenError",
      ),
    ).toBe(true)
  })

  it("session update passes newSession and trigger to the session callback", async () => {
    const seen: unknown[] = []
    const { config } = await setup({
      callbacks: {
        session: ({ session, newSession, trigger }) => {
          seen.push({ newSession, trigger })
          return { expires: String(session.expires), user: { name: "x" } }
        },
      },
    })
    const { jar } = await signInWithCredentials(Auth, config)
    await Auth(req("/auth/session", { json: { data: { theme: "dark" } }, jar }), config)
    expect(seen).toContainEqual({ newSession: { theme: "dark" }, trigger: "update" })
  })

  it("signs in with a new token every time and revokes the previous row (fixation)", async () => {
    const { adapter, config } = await setup()
    const jar = new Jar()
    jar.cookies.set(NAME, "planted")
    await signInWithCredentials(Auth, config, jar)
    const first = jar.get(NAME)!
    expect(first).not.toBe("planted")
    await signInWithCredentials(Auth, config, jar)
    const second = jar.get(NAME)!
    expect(second).not.toBe(first)
    expect(await adapter.getSessionAndUser!(first)).toBeNull()
    const replay = await Auth(
      req("/auth/session", { headers: { cookie: `${NAME}=${first}` } }),
      config,
    )
    expect(await replay.json()).toBeNull()
  })

  it("sign-out deletes the row and fires signOut with the session", async () => {
    const signOut = vi.fn()
    const { adapter, config } = await setup({ events: { signOut } })
    const { jar } = await signInWithCredentials(Auth, config)
    const token = jar.get(NAME)!
    const res = await Auth(req("/auth/signout", { form: {}, jar }), config)
    expect(res.status).toBe(303)
    expect(await adapter.getSessionAndUser!(token)).toBeNull()
    expect(signOut).toHaveBeenCalledWith({
      session: expect.objectContaining({ sessionToken: token }),
    })
    expect(setCookies(res).find((c) => c.name === NAME)!.attributes["max-age"]).toBe("0")
  })

  it("an explicit jwt strategy with an adapter uses JWTs", async () => {
    const { config } = await setup({ session: { strategy: "jwt" } })
    const { jar } = await signInWithCredentials(Auth, config)
    expect(jar.get(NAME)!.split(".")).toHaveLength(5)
  })

  it("honours a custom generateSessionToken", async () => {
    const { config } = await setup({
      session: { generateSessionToken: () => "custom-token-value" },
    })
    const { jar } = await signInWithCredentials(Auth, config)
    expect(jar.get(NAME)).toBe("custom-token-value")
  })
})
