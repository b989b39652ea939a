import { afterEach, beforeEach, describe, expect, it, vi } from "vitest"
import { MissingSecret } from "../../src/kernel/errors/errors.js"
import { encode, getToken } from "../../src/kernel/token/jwt.js"
import { SECRET } from "./helpers.js"

const NAME = "authjs.session-token"
const SECURE = "__Secure-authjs.session-token"

const tokenFor = (salt = NAME, claims: Record<string, unknown> = { sub: "u1" }) =>
  encode({ token: claims, secret: SECRET, salt })

const withCookie = (cookie: string) => new Request("http://app.test/", { headers: { cookie } })

beforeEach(() => {
  vi.stubEnv("AUTH_URL", "")
  vi.stubEnv("AUTH_SECRET", "")
})
afterEach(() => vi.unstubAllEnvs())

describe("getToken", () => {
  it("reads and decrypts the session cookie", async () => {
    const token = await tokenFor()
    const jwt = await getToken({ req: withCookie(`${NAME}=${token}`), secret: SECRET })
    expect(jwt?.sub).toBe("u1")
  })

  it("accepts { headers } as Headers or a plain record, header names in any case", async () => {
    const token = await tokenFor()
    expect(
      await getToken({
        req: { headers: new Headers({ Cookie: `${NAME}=${token}` }) },
        secret: SECRET,
      }),
    ).not.toBeNull()
    expect(
      await getToken({ req: { headers: { Cookie: `a=b; ${NAME}=${token}` } }, secret: SECRET }),
    ).not.toBeNull()
  })

  it("reassembles chunks in numeric order and ignores gaps and stray suffixes", async () => {
    const token = await tokenFor(NAME, { sub: "u1", big: "x".repeat(5000) })
    const a = token.slice(0, 2000)
    const b = token.slice(2000, 4000)
    const c = token.slice(4000)
    // Out of order in the header, with a stray cookie and a chunk after a gap.
    const cookie = `${NAME}.2=${c}; ${NAME}.x=junk; ${NAME}.0=${a}; ${NAME}-old=junk; ${NAME}.1=${b}; ${NAME}.4=junk`
    expect((await getToken({ req: withCookie(cookie), secret: SECRET }))?.sub).toBe("u1")
    // A gap before the last chunk loses it: the token is then simply invalid.
    const gap = `${NAME}.0=${a}; ${NAME}.2=${c}; ${NAME}.1x=${b}`
    expect(await getToken({ req: withCookie(gap), secret: SECRET })).toBeNull()
  })

  it("falls back to a stale chunked value when the whole cookie does not decrypt", async () => {
    const token = await tokenFor()
    const cookie = `${NAME}=garbage; ${NAME}.0=${token.slice(0, 50)}; ${NAME}.1=${token.slice(50)}`
    expect((await getToken({ req: withCookie(cookie), secret: SECRET }))?.sub).toBe("u1")
  })

  it("reads Authorization: Bearer, percent-decoded; malformed encoding gives null", async () => {
    const token = await tokenFor()
    const bearer = (value: string) =>
      new Request("http://app.test/", { headers: { authorization: value } })
    expect((await getToken({ req: bearer(`Bearer ${token}`), secret: SECRET }))?.sub).toBe("u1")
    expect(
      (
        await getToken({
          req: bearer(`Bearer ${encodeURIComponent(token).replace(/\./g, "%2E")}`),
          secret: SECRET,
        })
      )?.sub,
    ).toBe("u1")
    expect(await getToken({ req: bearer("Bearer %E0%A4%A"), secret: SECRET })).toBeNull()
    expect(await getToken({ req: bearer(`Basic ${token}`), secret: SECRET })).toBeNull()
    expect(await getToken({ req: bearer(`bearer ${token}`), secret: SECRET })).toBeNull()
  })

  it("prefers the cookie over the bearer header", async () => {
    const cookieToken = await tokenFor(NAME, { sub: "from-cookie" })
    const bearerToken = await tokenFor(NAME, { sub: "from-bearer" })
    const req = new Request("http://app.test/", {
      headers: { cookie: `${NAME}=${cookieToken}`, authorization: `Bearer ${bearerToken}` },
    })
    expect((await getToken({ req, secret: SECRET }))?.sub).toBe("from-cookie")
  })

  it("uses the __Secure- name and salt when secureCookie is set or AUTH_URL is https", async () => {
    const token = await tokenFor(SECURE)
    const req = withCookie(`${SECURE}=${token}`)
    expect(await getToken({ req, secret: SECRET })).toBeNull()
    expect((await getToken({ req, secret: SECRET, secureCookie: true }))?.sub).toBe("u1")
    vi.stubEnv("AUTH_URL", "https://app.example.com")
    expect((await getToken({ req, secret: SECRET }))?.sub).toBe("u1")
    vi.stubEnv("AUTH_URL", "http://localhost:3000")
    expect(await getToken({ req, secret: SECRET })).toBeNull()
  })

  it("honours cookieName, salt, raw and a custom decode", async () => {
    const token = await encode({ token: { sub: "c" }, secret: SECRET, salt: "custom-salt" })
    const req = withCookie(`my-session=${token}`)
    expect(await getToken({ req, secret: SECRET, cookieName: "my-session" })).toBeNull()
    expect(
      (await getToken({ req, secret: SECRET, cookieName: "my-session", salt: "custom-salt" }))?.sub,
    ).toBe("c")
    const raw: string | null = await getToken({ req, cookieName: "my-session", raw: true })
    expect(raw).toBe(token)
    const custom = await getToken({
      req,
      secret: SECRET,
      cookieName: "my-session",
      decode: async ({ token: t }) => ({ sub: `custom:${t?.length}` }),
    })
    expect(custom?.sub).toBe(`custom:${token.length}`)
    const throwing = await getToken({
      req,
      secret: SECRET,
      cookieName: "my-session",
      decode: () => {
        throw new Error("boom")
      },
    })
    expect(throwing).toBeNull()
  })

  it("takes the secret from AUTH_SECRET", async () => {
    vi.stubEnv("AUTH_SECRET", SECRET)
    expect((await getToken({ req: withCookie(`${NAME}=${await tokenFor()}`) }))?.sub).toBe("u1")
  })

  it("returns null without a token, and for any bad token", async () => {
    expect(await getToken({ req: withCookie("other=1"), secret: SECRET })).toBeNull()
    expect(await getToken({ req: { headers: {} }, secret: SECRET })).toBeNull()
    expect(await getToken({ req: withCookie(`${NAME}=not.a.token`), secret: SECRET })).toBeNull()
    expect(await getToken({ req: withCookie(`${NAME}=%ZZ`), secret: SECRET })).toBeNull()
  })

  it("throws a TypeError without req and MissingSecret without a secret", async () => {
    await expect(getToken({} as never)).rejects.toThrow(TypeError)
    await expect(getToken(undefined as never)).rejects.toThrow(/req/)
    const req = withCookie(`${NAME}=${await tokenFor()}`)
    await expect(getToken({ req })).rejects.toBeInstanceOf(MissingSecret)
    // raw needs no secret
    expect(await getToken({ req, raw: true })).toMatch(/^ey/)
  })

  it("logs why it returned null, without the token", async () => {
    const lines: unknown[] = []
    const token = await tokenFor("other-salt")
    await getToken({
      req: withCookie(`${NAME}=${token}`),
      secret: SECRET,
      logger: { debug: (...args: unknown[]) => lines.push(args) },
    })
    expect(JSON.stringify(lines)).toContain("did not decrypt")
    expect(JSON.stringify(lines)).not.toContain(token)
  })
})
