import { describe, expect, it } from "vitest"
import { Auth, skipCSRFCheck } from "../../src/index.js"
import { createCsrfPair, readCsrfCookie } from "../../src/kernel/csrf/double-submit.js"
import { Jar, makeConfig, ORIGIN, recordingLogger, req, SECRET, setCookies } from "./helpers.js"

const creds = { username: "alice", password: "wonderland" }

async function csrf(config = makeConfig()) {
  const jar = new Jar()
  const res = await Auth(req("/auth/csrf", { jar }), config)
  jar.take(res)
  const { csrfToken } = (await res.json()) as { csrfToken: string }
  return { jar, csrfToken, res }
}

/** A POST as a non-browser or old browser sends it: no Sec-Fetch-Site. */
function plainPost(
  path: string,
  form: Record<string, string>,
  jar?: Jar,
  headers: Record<string, string> = {},
) {
  return req(path, { form, jar, headers: { "x-no-fetch-metadata": "1", ...headers } })
}

describe("CSRF", () => {
  const config = makeConfig()

  it("GET /csrf returns a token and a signed cookie token|hmac, no-cache", async () => {
    const { csrfToken, res, jar } = await csrf()
    expect(csrfToken).toMatch(/^[0-9a-f]{64}$/)
    const cookie = jar.get("authjs.csrf-token")!
    expect(cookie).toMatch(/^[0-9a-f]{64}\|[0-9a-f]{64}$/)
    expect(cookie.split("|")[0]).toBe(csrfToken)
    expect(res.headers.get("cache-control")).toBe("private, no-cache, no-store")
    // Reused while valid.
    const again = await Auth(req("/auth/csrf", { jar }), config)
    expect(((await again.json()) as { csrfToken: string }).csrfToken).toBe(csrfToken)
    expect(again.headers.getSetCookie()).toEqual([])
  })

  it("uses an HMAC keyed from the secret (another secret does not verify)", async () => {
    const pair = await createCsrfPair([SECRET])
    expect(await readCsrfCookie(pair.cookieValue, [SECRET])).toBe(pair.token)
    expect(
      await readCsrfCookie(pair.cookieValue, ["another-secret-of-32-bytes-or-more!!"]),
    ).toBeNull()
    // Rotation: a cookie signed with an older secret still verifies.
    expect(
      await readCsrfCookie(pair.cookieValue, ["new-secret-of-32-bytes-or-more!!!!", SECRET]),
    ).toBe(pair.token)
    // Auth.js-style SHA-256(token‖secret) hashes are not accepted as HMACs.
    const { createHash } = await import("node:crypto")
    const authjs = `${pair.token}|${createHash("sha256").update(`${pair.token}${SECRET}`).digest("hex")}`
    expect(await readCsrfCookie(authjs, [SECRET])).toBeNull()
  })

  it.each([
    ["/auth/callback/credentials", creds],
    ["/auth/signin/credentials", {}],
    ["/auth/signin", {}],
    ["/auth/signout", {}],
  ])("refuses a cross-site POST %s with 403 MissingCSRF", async (path, form) => {
    const variants: Record<string, string>[] = [
      { "sec-fetch-site": "cross-site" },
      { "x-no-fetch-metadata": "1", origin: "https://evil.example" },
      { "x-no-fetch-metadata": "1" },
      { "sec-fetch-site": "same-site", origin: "https://sub.example.com" },
    ]
    for (const headers of variants) {
      const res = await Auth(req(path, { form, headers }), config)
      expect(res.status).toBe(403)
      const body = (await res.json()) as { error: { type: string }; url: string }
      expect(body.error.type).toBe("MissingCSRF")
      expect(body.url).toBe(`${ORIGIN}/auth/signin?error=MissingCSRF`)
      expect(res.headers.getSetCookie().some((c) => c.includes("session-token"))).toBe(false)
    }
  })

  it("refuses a cross-site session update with 403", async () => {
    const res = await Auth(
      req("/auth/session", {
        json: { data: { x: 1 } },
        headers: { "sec-fetch-site": "cross-site" },
      }),
      config,
    )
    expect(res.status).toBe(403)
  })

  it("refuses Sec-Fetch-Site: cross-site even with a valid token", async () => {
    const { jar, csrfToken } = await csrf()
    const res = await Auth(
      req("/auth/callback/credentials", {
        form: { ...creds, csrfToken },
        jar,
        headers: { "sec-fetch-site": "cross-site" },
      }),
      config,
    )
    expect(res.status).toBe(403)
  })

  it("accepts same-origin by Sec-Fetch-Site or Origin, without a token", async () => {
    const variants: Record<string, string>[] = [
      { "sec-fetch-site": "same-origin" },
      { "sec-fetch-site": "none" },
      { "x-no-fetch-metadata": "1", origin: ORIGIN },
    ]
    for (const headers of variants) {
      const res = await Auth(req("/auth/callback/credentials", { form: creds, headers }), config)
      expect(res.status).toBe(303)
    }
  })

  it("accepts the double-submit token when no same-origin signal is present", async () => {
    const { jar, csrfToken } = await csrf()
    const res = await Auth(
      plainPost("/auth/callback/credentials", { ...creds, csrfToken }, jar),
      config,
    )
    expect(res.status).toBe(303)
    expect(res.headers.get("location")).toBe(ORIGIN)
  })

  it("refuses a token that does not match the cookie, a forged cookie, or a token without cookie", async () => {
    const { jar, csrfToken } = await csrf()
    const wrong = csrfToken.replace(/^./, (c) => (c === "a" ? "b" : "a"))
    expect(
      (
        await Auth(
          plainPost("/auth/callback/credentials", { ...creds, csrfToken: wrong }, jar),
          config,
        )
      ).status,
    ).toBe(403)

    const forged = new Jar()
    const token = "a".repeat(64)
    forged.cookies.set("authjs.csrf-token", `${token}|${"0".repeat(64)}`)
    expect(
      (
        await Auth(
          plainPost("/auth/callback/credentials", { ...creds, csrfToken: token }, forged),
          config,
        )
      ).status,
    ).toBe(403)

    expect(
      (await Auth(plainPost("/auth/callback/credentials", { ...creds, csrfToken }), config)).status,
    ).toBe(403)
  })

  it("ignores a csrfToken in the query string", async () => {
    const { jar, csrfToken } = await csrf()
    const res = await Auth(
      plainPost(`/auth/callback/credentials?csrfToken=${csrfToken}`, creds, jar),
      config,
    )
    expect(res.status).toBe(403)
  })

  it("renders a 403 error page for a refused form navigation", async () => {
    const res = await Auth(
      req("/auth/signout", {
        form: {},
        headers: {
          "sec-fetch-site": "cross-site",
          "sec-fetch-mode": "navigate",
          accept: "text/html",
        },
      }),
      config,
    )
    expect(res.status).toBe(403)
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8")
  })

  it("skipCSRFCheck: POSTs pass, GET /csrf is 404 and clears the cookie, with warning csrf-disabled", async () => {
    const rec = recordingLogger()
    const skip = makeConfig({ skipCSRFCheck, logger: rec.logger })
    const post = await Auth(
      req("/auth/callback/credentials", {
        form: creds,
        headers: { "sec-fetch-site": "cross-site" },
      }),
      skip,
    )
    expect(post.status).toBe(303)
    const jar = new Jar()
    jar.cookies.set("authjs.csrf-token", "old")
    const res = await Auth(req("/auth/csrf", { jar }), skip)
    expect(res.status).toBe(404)
    expect(await res.text()).toBe("")
    const cleared = setCookies(res).find((c) => c.name === "authjs.csrf-token")!
    expect(cleared.attributes["max-age"]).toBe("0")
    expect(rec.warnings()).toContain("csrf-disabled")
  })

  it("uses __Host- for the CSRF cookie over https", async () => {
    const jar = new Jar()
    const res = await Auth(req("/auth/csrf", { jar, origin: "https://app.example.com" }), config)
    const c = setCookies(res)[0]!
    expect(c.name).toBe("__Host-authjs.csrf-token")
    expect(c.attributes.secure).toBe(true)
    expect(c.attributes.path).toBe("/")
    expect(c.attributes.domain).toBeUndefined()
  })
})
