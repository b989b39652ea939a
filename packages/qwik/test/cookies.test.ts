import type { RequestEventCommon } from "@builder.io/qwik-city"
import { describe, expect, it } from "vitest"
import { applySetCookieHeaders, parseSetCookie, withoutSetCookie } from "../src/cookies.js"

function fakeEvent() {
  const calls: [string, string, Record<string, unknown>][] = []
  const event = {
    cookie: {
      set: (name: string, value: string, options: Record<string, unknown>) =>
        calls.push([name, value, options]),
    },
  } as unknown as RequestEventCommon
  return { event, calls }
}

describe("parseSetCookie", () => {
  it("reads every attribute and keeps the value as encoded on the wire", () => {
    const line =
      "authjs.callback-url=http%3A%2F%2Flocalhost%2Fa%3Bb%2Cc; Max-Age=900; Domain=example.com; Path=/; Expires=Wed, 21 Oct 2026 07:28:00 GMT; HttpOnly; Secure; Partitioned; Priority=High; SameSite=Lax"
    expect(parseSetCookie(line)).toEqual({
      name: "authjs.callback-url",
      value: "http%3A%2F%2Flocalhost%2Fa%3Bb%2Cc",
      attributes: {
        maxAge: 900,
        domain: "example.com",
        path: "/",
        expires: "Wed, 21 Oct 2026 07:28:00 GMT",
        httpOnly: true,
        secure: true,
        partitioned: true,
        priority: "high",
        sameSite: "lax",
      },
    })
  })

  it("keeps '=' inside values and ignores lines without a name", () => {
    expect(parseSetCookie("a=b=c; Path=/")?.value).toBe("b=c")
    expect(parseSetCookie("=x")).toBeNull()
    expect(parseSetCookie("novalue")).toBeNull()
  })
})

describe("applySetCookieHeaders", () => {
  it("writes each Set-Cookie exactly once through event.cookie.set", () => {
    const headers = new Headers()
    headers.append("Set-Cookie", "authjs.csrf-token=abc%7Cdef; Path=/; HttpOnly; SameSite=Lax")
    headers.append("Set-Cookie", "authjs.session-token=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax")
    const { event, calls } = fakeEvent()
    applySetCookieHeaders(event, headers)
    expect(calls).toEqual([
      ["authjs.csrf-token", "abc%7Cdef", { path: "/", httpOnly: true, sameSite: "lax" }],
      ["authjs.session-token", "", { maxAge: 0, path: "/", httpOnly: true, sameSite: "lax" }],
    ])
  })

  it("keeps attributes Qwik's serializer cannot express after the value", () => {
    const headers = new Headers({
      "Set-Cookie":
        "x=1; Max-Age=900; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Partitioned; Priority=Low",
    })
    const { event, calls } = fakeEvent()
    applySetCookieHeaders(event, headers)
    expect(calls[0]?.[1]).toBe(
      "1; Expires=Wed, 21 Oct 2026 07:28:00 GMT; Partitioned; Priority=Low",
    )
    expect(calls[0]?.[2]).toEqual({ maxAge: 900 })
  })
})

describe("withoutSetCookie", () => {
  it("drops Set-Cookie, keeps the rest, even from an immutable redirect", async () => {
    const res = Response.redirect("http://localhost/x", 302)
    const copy = withoutSetCookie(res)
    expect(copy.status).toBe(302)
    expect(copy.headers.get("location")).toBe("http://localhost/x")
    const json = new Response("{}", {
      headers: { "set-cookie": "a=b", "content-type": "application/json" },
    })
    const stripped = withoutSetCookie(json)
    expect(stripped.headers.getSetCookie()).toEqual([])
    await expect(stripped.text()).resolves.toBe("{}")
  })
})
