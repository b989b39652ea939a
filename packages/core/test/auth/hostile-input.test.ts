import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Auth } from "../../src/index.js"
import { InvalidRequest } from "../../src/kernel/errors/errors.js"
import { MAX_BODY_BYTES, parseForm, parseJsonObject } from "../../src/kernel/http/parse-request.js"
import { parseCookieHeader } from "../../src/kernel/token/cookie-header.js"
import { makeConfig, ORIGIN, req, setCookies } from "./helpers.js"

async function typeOf(res: Response) {
  return ((await res.json()) as { error: { type: string } }).error.type
}

describe("hostile input", () => {
  const config = makeConfig()

  it("refuses a body over the cap by Content-Length", async () => {
    const body = `a=${"x".repeat(MAX_BODY_BYTES + 10)}`
    const res = await Auth(
      req("/auth/callback/credentials", {
        body,
        headers: { "content-type": "application/x-www-form-urlencoded" },
      }),
      config,
    )
    expect(res.status).toBe(400)
    expect(await typeOf(res)).toBe("InvalidRequest")
  })

  it("refuses a streamed body over the cap without a Content-Length", async () => {
    const chunk = new TextEncoder().encode("x".repeat(16 * 1024))
    let sent = 0
    const stream = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent++ > 10) controller.close()
        else controller.enqueue(chunk)
      },
    })
    const request = new Request(`${ORIGIN}/auth/session`, {
      method: "POST",
      body: stream,
      headers: { "content-type": "application/json", "sec-fetch-site": "same-origin" },
      duplex: "half",
    } as RequestInit)
    const res = await Auth(request, config)
    expect(res.status).toBe(400)
    expect(await typeOf(res)).toBe("InvalidRequest")
  })

  it.each([
    ["application/json", "{not json"],
    ["application/json", "[1,2]"],
    ["application/json", "42"],
    ["application/json", "null"],
    ["application/x-www-form-urlencoded", "a=%E0%A4%A"],
    ["application/x-www-form-urlencoded", "a=%"],
  ])("answers 400 InvalidRequest for %s %j", async (type, body) => {
    const res = await Auth(
      req("/auth/callback/credentials", { body, headers: { "content-type": type } }),
      config,
    )
    expect(res.status).toBe(400)
    expect(await typeOf(res)).toBe("InvalidRequest")
  })

  it("refuses invalid UTF-8", async () => {
    const res = await Auth(
      req("/auth/callback/credentials", {
        body: new Uint8Array([0x61, 0x3d, 0xff, 0xfe]),
        headers: { "content-type": "application/x-www-form-urlencoded" },
      }),
      config,
    )
    expect(res.status).toBe(400)
  })

  it("never answers 500 with a stack for odd requests", async () => {
    const odd = [
      req("/auth/session", {
        method: "POST",
        body: "\u0000\u0001",
        headers: { "content-type": "application/json" },
      }),
      req("/auth/signin/credentials", {
        method: "POST",
        body: "x",
        headers: { "content-type": "text/plain" },
      }),
      req("/auth/callback/credentials", { json: { username: { $ne: 1 }, password: ["a"] } }),
      req("/auth/callback/credentials", {
        json: { __proto__: { polluted: true }, constructor: 1 },
      }),
      req("/auth/signin?callbackUrl=%F0%9F%98%80", {}),
      req("/auth/session", { headers: { cookie: "authjs.session-token=%%%; a=\u00ff" } }),
    ]
    for (const r of odd) {
      const res = await Auth(r, config)
      expect(res.status).toBeLessThan(500)
      expect(await res.text()).not.toMatch(/at .*\.ts:\d+/)
    }
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
  })

  it("parses form bodies like URLSearchParams for well-formed input (property)", () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.string()), (fields) => {
        const encoded = new URLSearchParams(fields).toString()
        const parsed = parseForm(encoded)
        expect({ ...parsed }).toEqual(Object.fromEntries(new URLSearchParams(encoded)))
      }),
    )
  })

  it("either parses or throws InvalidRequest for any form text (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (text) => {
        try {
          parseForm(text)
        } catch (e) {
          expect(e).toBeInstanceOf(InvalidRequest)
        }
      }),
    )
  })

  it("either parses an object or throws InvalidRequest for any JSON text (property)", () => {
    fc.assert(
      fc.property(fc.oneof(fc.json(), fc.string()), (text) => {
        try {
          const o = parseJsonObject(text)
          expect(typeof o).toBe("object")
        } catch (e) {
          expect(e).toBeInstanceOf(InvalidRequest)
        }
      }),
    )
  })

  it("never throws on any Cookie header and round-trips simple cookies (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (header) => {
        parseCookieHeader(header)
      }),
    )
    const name = fc.stringMatching(/^[A-Za-z0-9_.-]{1,20}$/)
    fc.assert(
      fc.property(fc.dictionary(name, fc.string()), (cookies) => {
        const header = Object.entries(cookies)
          .map(([k, v]) => `${k}=${encodeURIComponent(v)}`)
          .join("; ")
        const parsed = parseCookieHeader(header)
        for (const [k, v] of Object.entries(cookies)) expect(parsed[k]).toBe(v)
      }),
    )
  })

  it("an over-long callbackUrl falls back to the origin: no Set-Cookie over 4096 bytes", async () => {
    const long = `/${"a".repeat(10_000)}`
    const requests = [
      req(`/auth/signin?callbackUrl=${long}`),
      req(`/auth/signout?callbackUrl=${encodeURIComponent(`${ORIGIN}${long}`)}`),
      req("/auth/signin?callbackUrl=/%E2%82%AC".concat("%E2%82%AC".repeat(1500))),
    ]
    for (const request of requests) {
      const res = await Auth(request, config)
      expect(res.status).toBe(200)
      for (const header of res.headers.getSetCookie()) {
        expect(new TextEncoder().encode(header).length).toBeLessThanOrEqual(4096)
      }
      const cookie = setCookies(res).find((c) => c.name === "authjs.callback-url")
      expect(cookie?.value).toBe(ORIGIN)
      expect(await res.text()).not.toContain("aaaaaaaaaa")
    }
    // A long destination that fits is kept.
    const fits = `/${"b".repeat(3000)}`
    const kept = await Auth(req(`/auth/signin?callbackUrl=${fits}`), config)
    expect(setCookies(kept).find((c) => c.name === "authjs.callback-url")?.value).toBe(
      `${ORIGIN}${fits}`,
    )
  })
})
