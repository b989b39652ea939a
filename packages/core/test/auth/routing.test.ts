import { describe, expect, it } from "vitest"
import { Auth, isAuthAction } from "../../src/index.js"
import { Jar, makeConfig, req, signInWithCredentials } from "./helpers.js"

async function errorOf(res: Response) {
  return ((await res.json()) as { error: { type: string; message: string } }).error
}

describe("routing", () => {
  const config = makeConfig()

  it("knows the auth actions", () => {
    for (const a of [
      "providers",
      "session",
      "csrf",
      "signin",
      "signout",
      "callback",
      "verify-request",
      "error",
    ]) {
      expect(isAuthAction(a)).toBe(true)
    }
    expect(isAuthAction("signup")).toBe(false)
    expect(isAuthAction("__proto__")).toBe(false)
  })

  it.each([
    "/auth/nope",
    "/auth",
    "/auth/",
    "/authsignin",
    "/auth-session",
    "/other/session",
    "/auth/session/extra",
    "/auth/csrf/x",
    "/auth/callback/credentials/more",
  ])("answers 400 UnknownAction for %s", async (path) => {
    const res = await Auth(req(path), config)
    expect(res.status).toBe(400)
    expect(res.headers.get("content-type")).toBe("application/json")
    const error = await errorOf(res)
    expect(error.type).toBe("UnknownAction")
    expect(error.message.length).toBeGreaterThan(10)
  })

  it("does not treat basePath as a regex", async () => {
    const c = makeConfig({ basePath: "/a.b" })
    expect((await Auth(req("/a.b/session"), c)).status).toBe(200)
    expect((await Auth(req("/axb/session"), c)).status).toBe(400)
    const plus = makeConfig({ basePath: "/a+" })
    expect((await Auth(req("/a+/session"), plus)).status).toBe(200)
    expect((await Auth(req("/aa/session"), plus)).status).toBe(400)
  })

  it("tolerates trailing slashes and a custom basePath", async () => {
    expect((await Auth(req("/auth/session/"), config)).status).toBe(200)
    const c = makeConfig({ basePath: "/api/auth/" })
    expect((await Auth(req("/api/auth/providers"), c)).status).toBe(200)
  })

  it("answers 400 for malformed percent-encoding in the path", async () => {
    const res = await Auth(req("/auth/callback/%E0%A4%A"), config)
    expect(res.status).toBe(400)
    expect((await errorOf(res)).type).toBe("InvalidRequest")
  })

  it.each([
    ["PUT", "/auth/session", "GET, HEAD, POST"],
    ["DELETE", "/auth/signout", "GET, HEAD, POST"],
    ["POST", "/auth/csrf", "GET, HEAD"],
    ["POST", "/auth/providers", "GET, HEAD"],
    ["POST", "/auth/error", "GET, HEAD"],
    ["POST", "/auth/verify-request", "GET, HEAD"],
    ["PATCH", "/auth/callback/credentials", "GET, HEAD, POST"],
  ])("answers 405 MethodNotAllowed for %s %s", async (method, path, allow) => {
    const res = await Auth(req(path, { method }), config)
    expect(res.status).toBe(405)
    expect(res.headers.get("allow")).toBe(allow)
    expect((await errorOf(res)).type).toBe("MethodNotAllowed")
  })

  it.each([
    "/auth/providers",
    "/auth/session",
    "/auth/csrf",
    "/auth/signin",
    "/auth/signout",
    "/auth/error?error=Configuration",
    "/auth/verify-request",
    "/auth/nope",
    "/auth/callback/credentials",
  ])("answers HEAD %s as GET would: same status and headers, no body", async (path) => {
    const get = await Auth(req(path), config)
    const head = await Auth(req(path, { method: "HEAD" }), config)
    expect(head.status).toBe(get.status)
    const names = (res: Response) => [...res.headers.keys()].sort()
    expect(names(head)).toEqual(names(get))
    for (const [name, value] of get.headers) {
      // CSRF tokens are fresh per request; everything else is identical.
      if (name !== "set-cookie") expect(head.headers.get(name), name).toBe(value)
    }
    expect(head.headers.getSetCookie().map((c) => c.split("=")[0])).toEqual(
      get.headers.getSetCookie().map((c) => c.split("=")[0]),
    )
    expect(await head.text()).toBe("")
    if (get.status === 200) expect((await get.text()).length).toBeGreaterThan(0)
  })

  it("refuses GET on a credentials callback and on signin/<provider> with 405", async () => {
    const a = await Auth(req("/auth/callback/credentials"), config)
    expect(a.status).toBe(405)
    expect(a.headers.get("allow")).toBe("POST")
    const b = await Auth(req("/auth/signin/credentials"), config)
    expect(b.status).toBe(405)
  })

  it("answers 400 InvalidProvider for an unknown provider id", async () => {
    const res = await Auth(req("/auth/callback/nope", { form: {} }), config)
    expect(res.status).toBe(400)
    expect((await errorOf(res)).type).toBe("InvalidProvider")
  })

  it("lists providers without cookies", async () => {
    const res = await Auth(req("/auth/providers"), config)
    expect(res.status).toBe(200)
    expect(res.headers.getSetCookie()).toEqual([])
    expect(await res.json()).toEqual({
      credentials: {
        id: "credentials",
        name: "Credentials",
        type: "credentials",
        signinUrl: "http://app.example.com/auth/signin/credentials",
        callbackUrl: "http://app.example.com/auth/callback/credentials",
      },
    })
  })

  it("uses 303 after POST and 302 after GET, never 301", async () => {
    const { res } = await signInWithCredentials(Auth, config)
    expect(res.status).toBe(303)
    const custom = makeConfig({ pages: { signIn: "/login" } })
    const get = await Auth(req("/auth/signin"), custom)
    expect(get.status).toBe(302)
    expect(get.headers.get("location")).toBe(
      "http://app.example.com/login?callbackUrl=http%3A%2F%2Fapp.example.com",
    )
  })

  it("answers X-Auth-Return-Redirect with 200 {url} and keeps the cookies", async () => {
    const jar = new Jar()
    const res = await Auth(
      req("/auth/callback/credentials", {
        form: { username: "alice", password: "wonderland", callbackUrl: "/dashboard" },
        headers: { "X-Auth-Return-Redirect": "1" },
        jar,
      }),
      config,
    )
    expect(res.status).toBe(200)
    expect(await res.json()).toEqual({ url: "http://app.example.com/dashboard" })
    expect(res.headers.get("location")).toBeNull()
    expect(res.headers.getSetCookie().some((c) => c.startsWith("authjs.session-token="))).toBe(true)
  })

  it("returns error redirects as {url} too, keeping the cookies computed so far", async () => {
    const res = await Auth(
      req("/auth/callback/credentials", {
        form: { username: "alice", password: "bad", callbackUrl: "/after" },
        headers: { "X-Auth-Return-Redirect": "1" },
      }),
      config,
    )
    expect(res.status).toBe(200)
    const { url } = (await res.json()) as { url: string }
    expect(url).toBe("http://app.example.com/auth/signin?error=CredentialsSignin&code=credentials")
    // The callback-url cookie computed before authorize() failed is still there.
    expect(res.headers.getSetCookie().some((c) => c.startsWith("authjs.callback-url="))).toBe(true)
  })

  it("sends every response with Cache-Control no-store", async () => {
    for (const path of ["/auth/providers", "/auth/session", "/auth/csrf", "/auth/nope"]) {
      const res = await Auth(req(path), config)
      expect(res.headers.get("cache-control")).toContain("no-store")
    }
  })

  it("answers webauthn-options with a typed 400 (not implemented)", async () => {
    const res = await Auth(req("/auth/webauthn-options/credentials"), config)
    expect(res.status).toBe(400)
    expect((await errorOf(res)).type).toBe("InvalidProvider")
  })
})
