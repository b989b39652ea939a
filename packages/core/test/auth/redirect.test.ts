import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { Auth } from "../../src/index.js"
import { defaultRedirect, redirectLocation, toLocation } from "../../src/kernel/urls/redirect.js"
import { makeConfig, ORIGIN, req, setCookies } from "./helpers.js"

const baseUrl = "https://app.example.com"

/** Open-redirect vectors (security-and-pain-points S14 and issue 3). None may leave the origin. */
const vectors = [
  "//evil.com",
  "///evil.com",
  "/\\evil.com",
  "\\\\evil.com",
  "\\/evil.com",
  "https://evil.com",
  "http://evil.com",
  "HTTPS://EVIL.COM",
  "hTtPs://evil.com/path",
  "https://app.example.com.evil.com",
  "https://app.example.com@evil.com",
  "https://user@evil.com",
  "https://user:pass@evil.com/",
  "https://evil.com#https://app.example.com",
  "https://evil.com?https://app.example.com",
  "javascript:alert(1)",
  "JavaScript:alert(1)",
  " javascript:alert(1)",
  "java\tscript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "vbscript:msgbox(1)",
  "%2F%2Fevil.com",
  "/%2F%2Fevil.com",
  "/%5Cevil.com",
  "\t//evil.com",
  "\n//evil.com",
  "\r\n//evil.com",
  " //evil.com",
  "/\t/evil.com",
  "/\n/evil.com",
  "http:evil.com",
  "https:evil.com",
  "https:/evil.com",
  "//evil.com/%2e%2e",
  "https://app.example.com:443.evil.com",
  "https://evil.com\\@app.example.com",
  "http://app.example.com",
  "ftp://app.example.com/",
  "https://аpp.example.com",
]

describe("redirect", () => {
  it.each(vectors)("default callback keeps %j on the origin", (url) => {
    const result = defaultRedirect({ url, baseUrl })
    expect(new URL(result).origin).toBe(baseUrl)
  })

  it("allows relative paths and same-origin URLs", () => {
    expect(defaultRedirect({ url: "/dashboard?x=1#y", baseUrl })).toBe(`${baseUrl}/dashboard?x=1#y`)
    expect(defaultRedirect({ url: `${baseUrl}/a`, baseUrl })).toBe(`${baseUrl}/a`)
    expect(defaultRedirect({ url: "/ünïcødé/😀", baseUrl })).toBe(
      `${baseUrl}/%C3%BCn%C3%AFc%C3%B8d%C3%A9/%F0%9F%98%80`,
    )
  })

  it("keeps any string on the origin (property)", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.webUrl(), fc.string({ unit: "binary" })), (url) => {
        expect(new URL(defaultRedirect({ url, baseUrl })).origin).toBe(baseUrl)
      }),
      { numRuns: 500 },
    )
  })

  it("toLocation never yields control characters (property)", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (target) => {
        const location = toLocation(target, baseUrl)
        expect(
          [...location].some((ch) => ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f),
        ).toBe(false)
        expect(location).toMatch(/^https?:\/\//)
      }),
    )
  })

  it.each(vectors)(
    "Auth() never redirects off-origin after sign-in with callbackUrl %j",
    async (callbackUrl) => {
      const res = await Auth(
        req("/auth/callback/credentials", {
          form: { username: "alice", password: "wonderland", callbackUrl },
        }),
        makeConfig(),
      )
      expect(res.status).toBe(303)
      expect(new URL(res.headers.get("location")!).origin).toBe(ORIGIN)
    },
  )

  it("CR/LF in callbackUrl cannot inject headers", async () => {
    for (const callbackUrl of [
      "/x\r\nSet-Cookie: evil=1",
      "/x%0d%0aSet-Cookie:%20evil=1",
      "/x\nLocation: https://evil.com",
    ]) {
      const config = makeConfig({ callbacks: { redirect: ({ url }) => url } })
      for (const path of [`/auth/signin?callbackUrl=${encodeURIComponent(callbackUrl)}`]) {
        const page = await Auth(req(path), makeConfig({ pages: { signIn: "/login" } }))
        expect(page.headers.get("location")).not.toMatch(/[\r\n]/)
      }
      const res = await Auth(
        req("/auth/callback/credentials", {
          form: { username: "alice", password: "wonderland", callbackUrl },
        }),
        config,
      )
      const location = res.headers.get("location")!
      expect(location).not.toMatch(/[\r\n]/)
      expect(res.headers.getSetCookie().some((c) => c.startsWith("evil="))).toBe(false)
    }
  })

  it("a custom redirect callback returning garbage falls back to the origin", async () => {
    const config = makeConfig({ callbacks: { redirect: () => "javascript:alert(1)" } })
    const res = await Auth(
      req("/auth/callback/credentials", { form: { username: "alice", password: "wonderland" } }),
      config,
    )
    expect(res.headers.get("location")).toBe(ORIGIN)
  })

  it("accepts unicode callback URLs", async () => {
    const res = await Auth(
      req("/auth/callback/credentials", {
        form: { username: "alice", password: "wonderland", callbackUrl: "/café?q=日本" },
      }),
      makeConfig(),
    )
    expect(res.headers.get("location")).toBe(`${ORIGIN}/caf%C3%A9?q=%E6%97%A5%E6%9C%AC`)
  })

  it("writes the bare origin as Auth.js does (no trailing slash) in { url } and the callback-url cookie", async () => {
    const config = makeConfig()
    const signOut = await Auth(
      req("/auth/signout", {
        form: { callbackUrl: `${ORIGIN}/` },
        headers: { "x-auth-return-redirect": "1" },
      }),
      config,
    )
    expect(await signOut.json()).toEqual({ url: ORIGIN })

    const page = await Auth(req(`/auth/signin?callbackUrl=${encodeURIComponent("/")}`), config)
    const cookie = setCookies(page).find((c) => c.name === "authjs.callback-url")
    expect(cookie?.value).toBe(ORIGIN)

    const withPath = await Auth(
      req("/auth/signout", {
        form: { callbackUrl: "/dashboard?tab=1" },
        headers: { "x-auth-return-redirect": "1" },
      }),
      config,
    )
    expect(await withPath.json()).toEqual({ url: `${ORIGIN}/dashboard?tab=1` })
  })

  /** Targets on the app's origin whose path starts with `//` once resolved (issue 23 item 6). */
  const doubleSlashVectors = [
    "/..//evil.example/path",
    "/./..//evil.example/path",
    `${baseUrl}//evil.example/path`,
    `${baseUrl}/\\evil.example/path`,
    `${baseUrl}/..//evil.example`,
    "/%2e%2e//evil.example/path",
    "/x/../..//evil.example",
  ]

  it.each(doubleSlashVectors)(
    "attack: %j resolves on the origin, and its path keeps one leading slash",
    (url) => {
      const chosen = defaultRedirect({ url, baseUrl })
      expect(new URL(chosen).origin).toBe(baseUrl)
      expect(new URL(chosen).pathname).not.toMatch(/^\/[/\\]/)
      expect(redirectLocation(chosen, baseUrl)).toMatch(/^\/(?![/\\])/)
      expect(redirectLocation(url, baseUrl)).toMatch(/^\/(?![/\\])/)
    },
  )

  it.each(doubleSlashVectors)(
    "attack: Auth() after sign-in with callbackUrl %j: Location never has a `//` path",
    async (callbackUrl) => {
      const res = await Auth(
        req("/auth/callback/credentials", {
          form: { username: "alice", password: "wonderland", callbackUrl },
          headers: { "x-auth-return-redirect": "1" },
        }),
        makeConfig(),
      )
      const { url } = (await res.json()) as { url: string }
      expect(new URL(url).origin).toBe(ORIGIN)
      expect(new URL(url).pathname).not.toMatch(/^\/[/\\]/)
    },
  )

  it("redirectLocation: a same-origin result never starts with // or /\\; anything else stays absolute (property)", () => {
    const pieces = fc.constantFrom(
      "/",
      "//",
      "\\",
      "/\\",
      "..",
      ".",
      "%2e",
      "%2f",
      "evil.example",
      "x",
      "?",
      "#",
      "@",
      ":",
      "\t",
    )
    const target = fc.oneof(
      fc.string(),
      fc.string({ unit: "binary" }),
      fc.webUrl(),
      fc.array(pieces, { maxLength: 12 }).map((parts) => parts.join("")),
      fc.array(pieces, { maxLength: 12 }).map((parts) => `${baseUrl}${parts.join("")}`),
    )
    fc.assert(
      fc.property(target, (url) => {
        const location = redirectLocation(url, baseUrl)
        expect(location.startsWith("//")).toBe(false)
        expect(location.startsWith("/\\")).toBe(false)
        if (location.startsWith("/")) {
          // What a browser makes of the path: the app's origin, always.
          expect(new URL(location, baseUrl).origin).toBe(baseUrl)
        } else {
          expect(location).toMatch(/^https?:\/\//)
        }
        // And the core's Location for the same target, once the origin is stripped.
        const core = new URL(defaultRedirect({ url, baseUrl }))
        expect(core.origin).toBe(baseUrl)
        expect(core.pathname.startsWith("//")).toBe(false)
      }),
      { numRuns: 2000 },
    )
  })
})
