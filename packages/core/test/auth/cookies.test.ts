import { describe, expect, it } from "vitest"
import { Auth } from "../../src/index.js"
import { buildCookies } from "../../src/kernel/cookies/defaults.js"
import { makeConfig, req, SECURE_ORIGIN, setCookies, signInWithCredentials } from "./helpers.js"

describe("cookies", () => {
  it("uses the Auth.js names, and __Secure-/__Host- prefixes with secure cookies", () => {
    const plain = buildCookies(false, undefined)
    const secure = buildCookies(true, undefined)
    expect(plain.sessionToken.name).toBe("authjs.session-token")
    expect(plain.csrfToken.name).toBe("authjs.csrf-token")
    expect(plain.pkceCodeVerifier).toEqual({
      name: "authjs.pkce.code_verifier",
      options: expect.objectContaining({ maxAge: 900 }),
    })
    expect(secure.sessionToken.name).toBe("__Secure-authjs.session-token")
    expect(secure.callbackUrl.name).toBe("__Secure-authjs.callback-url")
    expect(secure.csrfToken.name).toBe("__Host-authjs.csrf-token")
    expect(secure.state.name).toBe("__Secure-authjs.state")
    expect(secure.nonce.name).toBe("__Secure-authjs.nonce")
    expect(secure.webauthnChallenge.name).toBe("__Secure-authjs.challenge")
  })

  it("merges overrides per field", () => {
    const c = buildCookies(true, {
      sessionToken: { options: { sameSite: "strict" } },
      callbackUrl: { name: "cb" },
    })
    expect(c.sessionToken).toEqual({
      name: "__Secure-authjs.session-token",
      options: { httpOnly: true, sameSite: "strict", path: "/", secure: true },
    })
    expect(c.callbackUrl.name).toBe("cb")
    expect(c.callbackUrl.options.secure).toBe(true)
  })

  it("never gives a __Host- name to a CSRF cookie with a Domain", () => {
    const c = buildCookies(true, { csrfToken: { options: { domain: "example.com" } } })
    expect(c.csrfToken.name).toBe("__Secure-authjs.csrf-token")
  })

  it("session cookie over https: Secure, HttpOnly, SameSite=Lax, Path=/, no Domain, __Secure- prefix", async () => {
    const { res } = await signInWithCredentials(
      Auth,
      makeConfig(),
      undefined,
      undefined,
      SECURE_ORIGIN,
    )
    const session = setCookies(res).find((c) => c.name.includes("session-token"))!
    expect(session.name).toBe("__Secure-authjs.session-token")
    expect(session.attributes).toMatchObject({
      secure: true,
      httponly: true,
      samesite: "Lax",
      path: "/",
    })
    expect(session.attributes.domain).toBeUndefined()
    for (const c of setCookies(res)) {
      expect(c.attributes.secure).toBe(true)
      expect(c.attributes.httponly).toBe(true)
    }
  })

  it("useSecureCookies overrides the protocol", async () => {
    const res = await Auth(req("/auth/csrf"), makeConfig({ useSecureCookies: true }))
    expect(setCookies(res)[0]!.name).toBe("__Host-authjs.csrf-token")
  })

  it("sends each cookie in its own Set-Cookie header, URL-encoded", async () => {
    const res = await Auth(
      req("/auth/callback/credentials", {
        form: { username: "alice", password: "wonderland", callbackUrl: "/a b;c" },
      }),
      makeConfig(),
    )
    const raw = res.headers.getSetCookie()
    expect(raw.length).toBe(2)
    expect(raw.find((c) => c.startsWith("authjs.callback-url="))).toContain(
      "http%3A%2F%2Fapp.example.com%2Fa%2520b%3Bc",
    )
  })

  it("does not mint cookies on a plain session read", async () => {
    const res = await Auth(req("/auth/session"), makeConfig())
    expect(res.headers.getSetCookie()).toEqual([])
  })
})
