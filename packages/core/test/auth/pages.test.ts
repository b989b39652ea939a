import { describe, expect, it } from "vitest"
import { Auth, skipCSRFCheck } from "../../src/index.js"
import { Jar, makeConfig, ORIGIN, req, setCookies } from "./helpers.js"

describe("page endpoints", () => {
  const config = makeConfig({ theme: { brandColor: "#123456" } })

  it("GET /signin renders the page with the CSRF token embedded and sets the CSRF cookie", async () => {
    const res = await Auth(req("/auth/signin?callbackUrl=/dash"), config)
    expect(res.status).toBe(200)
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8")
    expect(res.headers.get("cache-control")).toBe("no-store")
    const html = await res.text()
    const csrf = setCookies(res).find((c) => c.name === "authjs.csrf-token")!
    expect(html).toContain(csrf.value.split("|")[0])
    expect(html).toContain(`${ORIGIN}/auth/callback/credentials`)
    expect(html).toContain("http://app.example.com/dash")
    expect(setCookies(res).find((c) => c.name === "authjs.callback-url")!.value).toBe(
      `${ORIGIN}/dash`,
    )
  })

  it("GET /signin?reauth=1 says why the user is asked to sign in again; a custom page gets reauth=1", async () => {
    const html = await (
      await Auth(req("/auth/signin?reauth=1&callbackUrl=/account"), config)
    ).text()
    expect(html).toContain('data-latchkey-notice="reauth"')
    expect(html).toContain("needs a recent sign-in")
    const plain = await (await Auth(req("/auth/signin?reauth=yes"), config)).text()
    expect(plain).not.toContain('data-latchkey-notice="reauth"')
    const custom = makeConfig({ pages: { signIn: "/login" } })
    const res = await Auth(req("/auth/signin?reauth=1&callbackUrl=/account"), custom)
    const location = new URL(res.headers.get("location")!)
    expect(location.pathname).toBe("/login")
    expect(location.searchParams.get("reauth")).toBe("1")
  })

  it("every built-in page refuses framing, sends no Referer and loads no scripts", async () => {
    for (const path of [
      "/auth/signin",
      "/auth/signout",
      "/auth/error?error=AccessDenied",
      "/auth/verify-request",
    ]) {
      const res = await Auth(req(path), config)
      expect(res.headers.get("content-type"), path).toBe("text/html; charset=utf-8")
      expect(res.headers.get("referrer-policy"), path).toBe("strict-origin")
      expect(res.headers.get("x-frame-options"), path).toBe("DENY")
      const csp = res.headers.get("content-security-policy") ?? ""
      expect(csp, path).toContain("frame-ancestors 'none'")
      expect(csp, path).toContain("default-src 'none'")
      expect(csp, path).not.toContain("script-src")
    }
  })

  it("the sign-in page's form works (token from the page, cookie from the jar)", async () => {
    const jar = new Jar()
    const page = await Auth(req("/auth/signin", { jar }), config)
    jar.take(page)
    const token = /name="csrfToken" value="([0-9a-f]{64})"/.exec(await page.text())![1]!
    const res = await Auth(
      req("/auth/callback/credentials", {
        form: { csrfToken: token, username: "alice", password: "wonderland" },
        jar,
        headers: { "x-no-fetch-metadata": "1" },
      }),
      config,
    )
    expect(res.status).toBe(303)
  })

  it("shows the error from the query on the sign-in page, escaped", async () => {
    const res = await Auth(
      req(`/auth/signin?error=${encodeURIComponent("<script>x</script>")}`),
      config,
    )
    expect(await res.text()).not.toContain("<script>x</script>")
  })

  it("GET /signout renders a confirmation form posting to /signout", async () => {
    const res = await Auth(req("/auth/signout"), config)
    expect(res.status).toBe(200)
    const html = await res.text()
    expect(html).toContain(`${ORIGIN}/auth/signout`)
    expect(html).toMatch(/name="csrfToken" value="[0-9a-f]{64}"/)
  })

  it("pages render with skipCSRFCheck and mint no CSRF cookie", async () => {
    const res = await Auth(req("/auth/signin"), makeConfig({ skipCSRFCheck }))
    expect(res.status).toBe(200)
    expect(setCookies(res).filter((c) => c.name.includes("csrf"))).toEqual([])
  })

  it.each([
    ["Configuration", 500],
    ["AccessDenied", 403],
    ["Verification", 403],
    ["Default", 400],
  ])("GET /error?error=%s renders with status %i", async (error, status) => {
    const res = await Auth(req(`/auth/error?error=${error}`), config)
    expect(res.status).toBe(status)
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8")
  })

  it("GET /verify-request renders the check-your-email page", async () => {
    const res = await Auth(req("/auth/verify-request?provider=email&type=email"), config)
    expect(res.status).toBe(200)
    expect(await res.text()).toContain("email")
  })

  it("custom pages get redirects with encoded parameters", async () => {
    const c = makeConfig({
      pages: { signIn: "/login", signOut: "/bye", error: "/oops?lang=en", verifyRequest: "/check" },
    })
    const signin = await Auth(req("/auth/signin?error=OAuthSignin&callbackUrl=/a"), c)
    expect(signin.headers.get("location")).toBe(
      `${ORIGIN}/login?callbackUrl=http%3A%2F%2Fapp.example.com%2Fa&error=OAuthSignin`,
    )
    expect((await Auth(req("/auth/signout"), c)).headers.get("location")).toBe(`${ORIGIN}/bye`)
    const err = await Auth(req(`/auth/error?error=${encodeURIComponent("x&admin=1")}`), c)
    expect(err.headers.get("location")).toBe(`${ORIGIN}/oops?lang=en&error=x%26admin%3D1`)
    const vr = await Auth(req("/auth/verify-request?provider=email&type=email"), c)
    expect(vr.headers.get("location")).toBe(`${ORIGIN}/check?provider=email&type=email`)
  })

  it("a custom error page that loops back renders the built-in page", async () => {
    const res = await Auth(
      req("/auth/error?error=AccessDenied"),
      makeConfig({ pages: { error: "/auth/error" } }),
    )
    expect(res.status).toBe(403)
  })
})
