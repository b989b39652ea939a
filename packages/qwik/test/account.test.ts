/**
 * The account binding against the real core: `requireRecentAuth`'s redirects (signed out, stale,
 * unknown sign-in time), the failure an account action returns (typed, with a message a person
 * can act on and the sign-in URL when a fresh sign-in is needed), and `useAccount` signed out.
 */
import { encode } from "@latchkey/core/jwt"
import Credentials from "@latchkey/core/providers/credentials"
import { MemoryStore } from "@latchkey/core/store"
import { describe, expect, it } from "vitest"
import { errorTypeOf, loadAccount, requireRecentSignIn, signInUrl } from "../src/account.js"
import type { QwikAuthConfig } from "../src/types.js"
import { fakeEvent, ORIGIN, outcome, Redirect } from "./fake-event.js"

const SECRET = "a-test-secret-that-is-at-least-32-bytes-long!!"

function makeConfig(overrides: Partial<QwikAuthConfig> = {}): QwikAuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    store: new MemoryStore(),
    providers: [Credentials({ authorize: () => ({ id: "u1", email: "a@b.c" }) })],
    ...overrides,
  }
}

/** A JWT session cookie for user `u1` whose sign-in was `age` seconds ago (or unknown). */
async function sessionCookie(age: number | "unknown"): Promise<string> {
  const now = Math.floor(Date.now() / 1000)
  const token: Record<string, unknown> = { sub: "u1", email: "a@b.c", sid: crypto.randomUUID() }
  if (age !== "unknown") token.auth_time = now - age
  const value = await encode({ token, secret: SECRET, salt: "authjs.session-token" })
  return `authjs.session-token=${value}`
}

function location(thrown: unknown): URL {
  expect(thrown).toBeInstanceOf(Redirect)
  expect((thrown as Redirect).status).toBe(302)
  return new URL((thrown as Redirect).location, ORIGIN)
}

describe("requireRecentAuth (binding)", () => {
  it("a recent sign-in passes and resolves the user and sign-in time", async () => {
    const { event } = fakeEvent("/settings/", { method: "GET", cookie: await sessionCookie(5) })
    const facts = await requireRecentSignIn(event, makeConfig(), {})
    expect(facts.userId).toBe("u1")
    expect(typeof facts.authTime).toBe("number")
  })

  it("a stale sign-in: 302 to the sign-in page with callbackUrl back and reauth=1", async () => {
    const { event } = fakeEvent("/settings/?tab=2", {
      method: "GET",
      cookie: await sessionCookie(3600),
    })
    const url = location(await outcome(requireRecentSignIn(event, makeConfig(), {})))
    expect(url.pathname).toBe("/auth/signin")
    expect(url.searchParams.get("callbackUrl")).toBe("/settings/?tab=2")
    expect(url.searchParams.get("reauth")).toBe("1")
  })

  it("maxAge is the caller's: 60 s ago passes the default window, not a 30 s one", async () => {
    const cookie = await sessionCookie(60)
    const ok = fakeEvent("/settings/", { method: "GET", cookie }).event
    await expect(requireRecentSignIn(ok, makeConfig(), {})).resolves.toMatchObject({
      userId: "u1",
    })
    const strict = fakeEvent("/settings/", { method: "GET", cookie }).event
    const thrown = await outcome(requireRecentSignIn(strict, makeConfig(), { maxAge: 30 }))
    expect(location(thrown).searchParams.get("reauth")).toBe("1")
  })

  it("a token without auth_time (issued by Auth.js) is never recent", async () => {
    const { event } = fakeEvent("/settings/", {
      method: "GET",
      cookie: await sessionCookie("unknown"),
    })
    const url = location(await outcome(requireRecentSignIn(event, makeConfig(), {})))
    expect(url.searchParams.get("reauth")).toBe("1")
  })

  it("a missing factor: reauth, and the app's own sign-in page when configured", async () => {
    const { event } = fakeEvent("/settings/", { method: "GET", cookie: await sessionCookie(5) })
    const config = makeConfig({ pages: { signIn: "/login/" } })
    const thrown = await outcome(requireRecentSignIn(event, config, { factors: ["otp"] }))
    const url = location(thrown)
    expect(url.pathname).toBe("/login/")
    expect(url.searchParams.get("reauth")).toBe("1")
    expect(url.searchParams.get("callbackUrl")).toBe("/settings/")
  })

  it("signed out: 302 to sign in with callbackUrl, without reauth", async () => {
    const { event } = fakeEvent("/settings/", { method: "GET" })
    const url = location(await outcome(requireRecentSignIn(event, makeConfig(), {})))
    expect(url.pathname).toBe("/auth/signin")
    expect(url.searchParams.get("callbackUrl")).toBe("/settings/")
    expect(url.searchParams.has("reauth")).toBe(false)
  })

  it("the callbackUrl of an action request is the page, without Qwik's plumbing", async () => {
    const { event } = fakeEvent("/settings/?qaction=abc", { qdata: true })
    expect(signInUrl(event, makeConfig(), true)).toBe(
      "/auth/signin?callbackUrl=%2Fsettings%2F&reauth=1",
    )
  })
})

describe("account action errors", () => {
  it("reads the error type from either JSON shape, falling back on the status", () => {
    expect(errorTypeOf(403, { error: "ReauthenticationRequired", message: "x" })).toBe(
      "ReauthenticationRequired",
    )
    expect(errorTypeOf(409, { error: { type: "LastSignInMethod", message: "x" } })).toBe(
      "LastSignInMethod",
    )
    expect(errorTypeOf(404, null)).toBe("AccountItemNotFound")
    expect(errorTypeOf(501, {})).toBe("NotSupportedByAdapter")
    expect(errorTypeOf(400, { error: "SomethingNew" })).toBe("Invalid")
    expect(errorTypeOf(500, null)).toBe("Error")
    // A type the binding does not know is never echoed (it could be anything the body said).
    expect(errorTypeOf(418, { error: "<script>" })).toBe("Invalid")
  })
})

describe("useAccount", () => {
  it("signed out: null", async () => {
    const { event } = fakeEvent("/account/", { method: "GET" })
    expect(await loadAccount(event, makeConfig())).toBeNull()
  })
})
