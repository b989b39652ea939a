import { afterEach, describe, expect, it, vi } from "vitest"
import { Auth, getSession } from "../../src/index.js"
import { MAX_SET_COOKIE_HEADER_BYTES } from "../../src/kernel/cookies/session-store.js"
import { decode, encode, type JWTDecodeParams } from "../../src/kernel/token/jwt.js"
import { sealWithHeader } from "../jwt/helpers.js"
import {
  Jar,
  makeConfig,
  recordingLogger,
  req,
  SECRET,
  setCookies,
  signInWithCredentials,
} from "./helpers.js"

const NAME = "authjs.session-token"
afterEach(() => vi.useRealTimers())

describe("JWT sessions", () => {
  it("issues an encrypted token with the Auth.js claims and cookie attributes", async () => {
    const config = makeConfig()
    const { res, jar } = await signInWithCredentials(Auth, config)
    const cookie = setCookies(res).find((c) => c.name === NAME)!
    expect(cookie.attributes.httponly).toBe(true)
    expect(cookie.attributes.samesite).toBe("Lax")
    expect(cookie.attributes.path).toBe("/")
    expect(cookie.attributes.expires).toBeDefined()
    const token = await decode({ token: jar.get(NAME)!, secret: SECRET, salt: NAME })
    expect(token).toMatchObject({ name: "Alice", email: "alice@example.com", sub: "user-alice" })
    expect(token!.exp! - token!.iat!).toBe(30 * 24 * 3600)
  })

  it("never hands the session callback the cookie's token: spreading its input leaks nothing", async () => {
    const seen: unknown[] = []
    const config = makeConfig({
      callbacks: {
        session: (params) => {
          seen.push(params)
          return { ...params.session, claims: params.token } as never
        },
      },
    })
    const { jar } = await signInWithCredentials(Auth, config)
    const token = jar.get(NAME)!
    const body = await (await Auth(req("/auth/session", { jar }), config)).text()
    expect(body).toContain('"claims"')
    expect(body).not.toContain(token)
    expect(JSON.stringify(seen)).not.toContain(token)
  })

  it("GET /session returns the default session shape with no-cache headers", async () => {
    const config = makeConfig()
    const { jar } = await signInWithCredentials(Auth, config)
    const res = await Auth(req("/auth/session", { jar }), config)
    expect(res.headers.get("cache-control")).toBe("private, no-cache, no-store")
    expect(res.headers.get("pragma")).toBe("no-cache")
    const body = (await res.json()) as { user: unknown; expires: string }
    expect(body.user).toEqual({ name: "Alice", email: "alice@example.com", image: null })
    expect(Date.parse(body.expires)).toBeGreaterThan(Date.now())
  })

  it("does not re-issue the cookie inside updateAge, and does when it is older", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(new Date("2030-01-01T00:00:00Z"))
    const config = makeConfig({ session: { updateAge: 3600 } })
    const { jar } = await signInWithCredentials(Auth, config)
    const first = jar.get(NAME)
    vi.setSystemTime(new Date("2030-01-01T00:30:00Z"))
    const inside = await Auth(req("/auth/session", { jar }), config)
    expect(inside.headers.getSetCookie()).toEqual([])
    vi.setSystemTime(new Date("2030-01-01T01:00:01Z"))
    const after = await Auth(req("/auth/session", { jar }), config)
    jar.take(after)
    expect(jar.get(NAME)).not.toBe(first)
  })

  it("re-issues on every read with updateAge 0", async () => {
    const config = makeConfig({ session: { updateAge: 0 } })
    const { jar } = await signInWithCredentials(Auth, config)
    const res = await Auth(req("/auth/session", { jar }), config)
    expect(setCookies(res).map((c) => c.name)).toEqual([NAME])
  })

  it("re-issues when the jwt callback changed the token (e.g. a refreshed access token)", async () => {
    let n = 0
    const config = makeConfig({ callbacks: { jwt: ({ token }) => ({ ...token, n: n++ }) } })
    const { jar } = await signInWithCredentials(Auth, config)
    const res = await Auth(req("/auth/session", { jar }), config)
    jar.take(res)
    expect((await decode({ token: jar.get(NAME)!, secret: SECRET, salt: NAME }))!.n).toBe(1)
  })

  it("POST /session runs jwt with trigger update and the data, and re-issues", async () => {
    const seen: unknown[] = []
    const config = makeConfig({
      callbacks: {
        jwt: ({ token, trigger, session }) => {
          seen.push({ trigger, session })
          return trigger === "update"
            ? { ...token, name: (session as { name: string }).name }
            : token
        },
      },
    })
    const { jar } = await signInWithCredentials(Auth, config)
    const res = await Auth(
      req("/auth/session", { json: { data: { name: "Alicia" } }, jar }),
      config,
    )
    expect(res.status).toBe(200)
    expect(((await res.json()) as { user: { name: string } }).user.name).toBe("Alicia")
    expect(seen).toContainEqual({ trigger: "update", session: { name: "Alicia" } })
    expect(setCookies(res).some((c) => c.name === NAME)).toBe(true)
  })

  it("ends the session when the jwt callback returns null", async () => {
    let allow = true
    const config = makeConfig({ callbacks: { jwt: ({ token }) => (allow ? token : null) } })
    const { jar } = await signInWithCredentials(Auth, config)
    allow = false
    const res = await Auth(req("/auth/session", { jar }), config)
    expect(await res.json()).toBeNull()
    expect(setCookies(res).find((c) => c.name === NAME)!.attributes["max-age"]).toBe("0")
  })

  it("treats an unreadable token as no session: cookie cleared, one warning, no error page", async () => {
    for (const value of ["garbage", "a.b.c.d.e"]) {
      const rec = recordingLogger()
      const config = makeConfig({ logger: rec.logger })
      const res = await Auth(
        req("/auth/session", { headers: { cookie: `${NAME}=${value}` } }),
        config,
      )
      expect(res.status).toBe(200)
      expect(await res.json()).toBeNull()
      expect(setCookies(res).map((c) => [c.name, c.attributes["max-age"]])).toEqual([[NAME, "0"]])
      expect(rec.warnings()).toEqual(["session-unreadable"])
    }
  })

  it("treats a token of a rotated-out secret as no session", async () => {
    const old = await encode({
      token: { sub: "x" },
      secret: "old-secret-old-secret-old-secret-old",
      salt: NAME,
    })
    const res = await Auth(
      req("/auth/session", { headers: { cookie: `${NAME}=${old}` } }),
      makeConfig(),
    )
    expect(await res.json()).toBeNull()
  })

  it("reads tokens of every rotation secret; the first one encrypts", async () => {
    const older = "older-secret-older-secret-older-secret"
    const token = await encode({ token: { name: "Old" }, secret: older, salt: NAME })
    const config = makeConfig({ secret: [SECRET, older], session: { updateAge: 0 } })
    const res = await Auth(
      req("/auth/session", { headers: { cookie: `${NAME}=${token}` } }),
      config,
    )
    expect(((await res.json()) as { user: { name: string } }).user.name).toBe("Old")
    const fresh = setCookies(res).find((c) => c.name === NAME)!.value
    expect(await decode({ token: fresh, secret: SECRET, salt: NAME })).not.toBeNull()
  })

  it("re-issues a token of an older secret on its first read, inside updateAge", async () => {
    const older = "older-secret-older-secret-older-secret"
    const token = await encode({ token: { name: "Old" }, secret: older, salt: NAME })
    const rec = recordingLogger()
    const config = makeConfig({ secret: [SECRET, older], logger: { ...rec.logger } })
    const first = await Auth(
      req("/auth/session", { headers: { cookie: `${NAME}=${token}` } }),
      config,
    )
    expect(((await first.json()) as { user: { name: string } }).user.name).toBe("Old")
    const fresh = setCookies(first).find((c) => c.name === NAME)?.value
    expect(fresh).toBeDefined()
    // Readable once the old secret is dropped: the rotation is complete for this user.
    expect(await decode({ token: fresh!, secret: SECRET, salt: NAME })).toMatchObject({
      name: "Old",
    })
    // The re-issued token is current: the next read inside updateAge sets nothing.
    const second = await Auth(
      req("/auth/session", { headers: { cookie: `${NAME}=${fresh}` } }),
      config,
    )
    expect(second.headers.getSetCookie()).toEqual([])
  })

  it("re-issues a kid-less token of an older secret, and leaves a kid-less current one", async () => {
    const older = "older-secret-older-secret-older-secret"
    const now = Math.floor(Date.now() / 1000)
    const withoutKid = (secret: string) =>
      sealWithHeader({ name: "K", iat: now, exp: now + 3600 }, {}, secret, NAME)
    const config = makeConfig({ secret: [SECRET, older] })
    const stale = await Auth(
      req("/auth/session", { headers: { cookie: `${NAME}=${await withoutKid(older)}` } }),
      config,
    )
    expect(setCookies(stale).map((c) => c.name)).toEqual([NAME])
    const current = await Auth(
      req("/auth/session", { headers: { cookie: `${NAME}=${await withoutKid(SECRET)}` } }),
      config,
    )
    expect(current.headers.getSetCookie()).toEqual([])
  })

  it("chunks a large token so every Set-Cookie header is at most 4096 bytes, and reads it back", async () => {
    const big = "x".repeat(10_000)
    const config = makeConfig({ callbacks: { jwt: ({ token }) => ({ ...token, big }) } })
    const { res, jar } = await signInWithCredentials(Auth, config)
    const chunks = setCookies(res).filter((c) => c.name.startsWith(`${NAME}.`))
    expect(chunks.length).toBeGreaterThanOrEqual(3)
    for (const raw of res.headers.getSetCookie()) {
      expect(new TextEncoder().encode(`Set-Cookie: ${raw}`).byteLength).toBeLessThanOrEqual(
        MAX_SET_COOKIE_HEADER_BYTES,
      )
    }
    const session = await getSession(req("/auth/session", { jar }), config)
    expect(session.session?.user?.name).toBe("Alice")
  })

  it("shrinking deletes stale chunks", async () => {
    let big = "x".repeat(10_000)
    const config = makeConfig({
      callbacks: { jwt: ({ token }) => ({ ...token, big }) },
      session: { updateAge: 0 },
    })
    const { jar } = await signInWithCredentials(Auth, config)
    expect(jar.get(`${NAME}.2`)).toBeDefined()
    big = ""
    const res = await Auth(req("/auth/session", { jar }), config)
    const sent = setCookies(res)
    const deleted = sent
      .filter((c) => c.attributes["max-age"] === "0")
      .map((c) => c.name)
      .sort()
    expect(deleted).toEqual(
      [`${NAME}.0`, `${NAME}.1`, `${NAME}.2`].concat(jar.get(`${NAME}.3`) ? [`${NAME}.3`] : []),
    )
    jar.take(res)
    expect([...jar.cookies.keys()].filter((k) => k.startsWith(NAME))).toEqual([NAME])
  })

  it("reads only the exact name or contiguous chunks", async () => {
    const config = makeConfig()
    const { jar } = await signInWithCredentials(Auth, config)
    const token = jar.get(NAME)!
    const mid = Math.floor(token.length / 2)
    const gap = `${NAME}.0=${token.slice(0, mid)}; ${NAME}.2=${token.slice(mid)}`
    expect((await getSession(req("/", { headers: { cookie: gap } }), config)).session).toBeNull()
    const chunked = `${NAME}.0=${token.slice(0, mid)}; ${NAME}.1=${token.slice(mid)}`
    expect(
      (await getSession(req("/", { headers: { cookie: chunked } }), config)).session,
    ).not.toBeNull()
    const lookalike = `${NAME}-old=${token}; ${NAME}.x=${token}`
    expect(
      (await getSession(req("/", { headers: { cookie: lookalike } }), config)).session,
    ).toBeNull()
  })

  it("getSession: no cookie → null with no work; same result as GET /session", async () => {
    const decodeSpy = vi.fn((p: JWTDecodeParams) => decode(p))
    const config = makeConfig({ jwt: { decode: decodeSpy } })
    expect(await getSession(req("/x"), config)).toEqual({ session: null, cookies: [] })
    expect(await getSession(req("/x", { headers: { cookie: "other=1" } }), config)).toEqual({
      session: null,
      cookies: [],
    })
    expect(decodeSpy).not.toHaveBeenCalled()
    const { jar } = await signInWithCredentials(Auth, config)
    const viaGet = await (await Auth(req("/auth/session", { jar }), config)).json()
    const direct = await getSession(req("/page", { jar }), config)
    expect(direct.session).toEqual(viaGet)
    expect(direct.cookies).toEqual([])
  })

  it("getSession returns cookie-clearing entries for an unreadable session", async () => {
    const r = await getSession(req("/x", { headers: { cookie: `${NAME}=bad` } }), makeConfig())
    expect(r.session).toBeNull()
    expect(r.cookies).toEqual([
      { name: NAME, value: "", options: expect.objectContaining({ maxAge: 0 }) },
    ])
  })

  it("uses whole seconds and works past 2038", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(new Date("2040-06-01T00:00:00.750Z"))
    const config = makeConfig()
    const { jar } = await signInWithCredentials(Auth, config)
    const token = (await decode({ token: jar.get(NAME)!, secret: SECRET, salt: NAME }))!
    expect(token.iat).toBe(Math.floor(Date.parse("2040-06-01T00:00:00Z") / 1000))
    const session = (await getSession(req("/", { jar }), config)).session!
    expect(session.expires).toBe("2040-07-01T00:00:00.000Z")
  })

  it("issues a new token on every sign-in (no fixation)", async () => {
    const config = makeConfig()
    const jar = new Jar()
    jar.cookies.set(NAME, "planted-by-attacker")
    await signInWithCredentials(Auth, config, jar)
    const first = jar.get(NAME)
    expect(first).not.toBe("planted-by-attacker")
    await signInWithCredentials(Auth, config, jar)
    expect(jar.get(NAME)).not.toBe(first)
  })

  it("sign-out clears every chunk, fires signOut with the token, redirects to callbackUrl", async () => {
    const signOut = vi.fn()
    const config = makeConfig({
      events: { signOut },
      callbacks: { jwt: ({ token }) => ({ ...token, big: "x".repeat(6000) }) },
    })
    const { jar } = await signInWithCredentials(Auth, config)
    const res = await Auth(req("/auth/signout", { form: { callbackUrl: "/bye" }, jar }), config)
    expect(res.status).toBe(303)
    expect(res.headers.get("location")).toBe("http://app.example.com/bye")
    jar.take(res)
    expect([...jar.cookies.keys()].filter((k) => k.startsWith(NAME))).toEqual([])
    expect(signOut).toHaveBeenCalledWith({ token: expect.objectContaining({ sub: "user-alice" }) })
  })
})
