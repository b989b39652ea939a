/**
 * Where the action bodies send the browser, against the real core: app routes get a 303 (Qwik's
 * client follows it), provider and core pages a full navigation when Qwik's client asked
 * (q-data), and a core failure the page for its error type, never an HTTP error.
 */
import { Auth } from "@latchkey/core"
import { StoreError } from "@latchkey/core/errors"
import Credentials from "@latchkey/core/providers/credentials"
import GitHub from "@latchkey/core/providers/github"
import { MemoryStore } from "@latchkey/core/store"
import { describe, expect, it } from "vitest"
import { req } from "../../core/test/auth/helpers.js"
import { signIn, signOut } from "../src/actions.js"
import { handleRequest } from "../src/on-request.js"
import type { QwikAuthConfig } from "../src/types.js"
import { fakeEvent, ORIGIN, outcome, Redirect, Sent } from "./fake-event.js"

const SECRET = "a-test-secret-that-is-at-least-32-bytes-long!!"

const config: QwikAuthConfig = {
  secret: SECRET,
  trustHost: true,
  providers: [
    Credentials({
      authorize: (c) => (c.password === "right" ? { id: "1", email: "a@b.c" } : null),
    }),
    GitHub({ clientId: "id", clientSecret: "secret" }),
    GitHub({ id: "unset" }),
  ],
}

describe("signIn", () => {
  it("credentials: a 303 to the app's page, which Qwik turns into client navigation", async () => {
    const { event } = fakeEvent("/login/", { qdata: true })
    const input = {
      providerId: "credentials",
      options: { password: "right", redirectTo: "/home/" },
    }
    expect(await outcome(signIn(event, config, input))).toEqual(new Redirect(303, "/home/"))
  })

  it("OAuth with JavaScript: the provider's URL on Qwik's data answer (a full navigation)", async () => {
    const { event, headers } = fakeEvent("/login/", { qdata: true })
    expect(await outcome(signIn(event, config, { providerId: "github" }))).toBeUndefined()
    expect(headers.get("location")).toMatch(/^https:\/\/github\.com\/login\/oauth\/authorize\?/)
  })

  it("OAuth without JavaScript: a 303 to the provider", async () => {
    const { event } = fakeEvent("/login/")
    const thrown = (await outcome(signIn(event, config, { providerId: "github" }))) as Redirect
    expect(thrown.status).toBe(303)
    expect(thrown.location).toMatch(/^https:\/\/github\.com\//)
  })

  it("a wrong password with JavaScript: the built-in sign-in page with ?error=, fully loaded", async () => {
    const { event, headers } = fakeEvent("/login/", { qdata: true })
    const input = { providerId: "credentials", options: { password: "wrong" } }
    expect(await outcome(signIn(event, config, input))).toBeUndefined()
    const location = new URL(headers.get("location")!, ORIGIN)
    expect(location.pathname).toBe("/auth/signin")
    expect(location.searchParams.get("error")).toBe("CredentialsSignin")
  })

  it("a wrong password with a custom sign-in page: a 303 there with the same ?error=", async () => {
    const { event } = fakeEvent("/login/", { qdata: true })
    const custom = { ...config, pages: { signIn: "/login/" } }
    const input = { providerId: "credentials", options: { password: "wrong" } }
    const thrown = (await outcome(signIn(event, custom, input))) as Redirect
    expect(thrown.status).toBe(303)
    const location = new URL(thrown.location, ORIGIN)
    expect(location.pathname).toBe("/login/")
    expect(location.searchParams.get("error")).toBe("CredentialsSignin")
  })

  it("a provider without its settings: the error page with its code, never an HTTP error", async () => {
    const { event, headers } = fakeEvent("/login/", { qdata: true })
    expect(await outcome(signIn(event, config, { providerId: "unset" }))).toBeUndefined()
    expect(headers.get("location")).toBe("/auth/error?error=InvalidProvider")
  })

  it("a store outage: the 'temporarily unavailable' error page, not RateLimited", async () => {
    const { event, headers } = fakeEvent("/login/", { qdata: true })
    class DownStore extends MemoryStore {
      override hit(): never {
        throw new StoreError("Redis refused the store's hit command")
      }
    }
    const down = new DownStore()
    const outage = { ...config, store: down, logger: { error: () => {} } }
    // A username, so the per-account limit asks the store.
    const input = { providerId: "credentials", options: { username: "a", password: "right" } }
    expect(await outcome(signIn(event, outage, input))).toBeUndefined()
    const location = new URL(headers.get("location")!, ORIGIN)
    expect(location.pathname).toBe("/auth/error")
    expect(location.searchParams.get("error")).toBe("StoreError")
  })

  it("a refusal whose JSON names the page to start again from (a cross-site POST): that page", async () => {
    const { event, headers } = fakeEvent("/login/", { qdata: true })
    const forged = new Request(event.request, {
      headers: { origin: "https://evil.example", "sec-fetch-site": "cross-site" },
    })
    Object.assign(event, { request: forged })
    const input = { providerId: "credentials", options: { password: "right" } }
    expect(await outcome(signIn(event, config, input))).toBeUndefined()
    const location = new URL(headers.get("location")!, ORIGIN)
    expect(location.pathname).toBe("/auth/signin")
    expect(location.searchParams.get("error")).toBe("MissingCSRF")
  })

  it("an untrusted host: the error page for UntrustedHost", async () => {
    // A public name: a request made straight to a loopback host is taken as it is.
    const { event, headers } = fakeEvent("/login/", { qdata: true, origin: "http://app.example" })
    const untrusted = { ...config, trustHost: false }
    expect(await outcome(signIn(event, untrusted, { providerId: "github" }))).toBeUndefined()
    expect(headers.get("location")).toBe("/auth/error?error=UntrustedHost")
  })
})

/** A credentials sign-in straight through the core: the session cookie of a new device. */
async function deviceCookie(config: QwikAuthConfig): Promise<string> {
  const request = req("/auth/callback/credentials", { form: { password: "right" }, origin: ORIGIN })
  const res = await Auth(request, config)
  const line = res.headers.getSetCookie().find((c) => c.startsWith("authjs.session-token="))!
  return line.split(";", 1)[0]!
}

async function sessionOf(config: QwikAuthConfig, cookie: string) {
  const res = await Auth(new Request(`${ORIGIN}/auth/session`, { headers: { cookie } }), config)
  return res.json()
}

/** Revocation checked on every read, with a store of its own. */
function strictRevocation(): QwikAuthConfig {
  return { ...config, store: new MemoryStore(), session: { strategy: "jwt", revocation: "strict" } }
}

describe("signOut", () => {
  it("with everywhere, ends the user's sessions on every device", async () => {
    const strict = strictRevocation()
    const phone = await deviceCookie(strict)
    const laptop = await deviceCookie(strict)
    expect(await sessionOf(strict, laptop)).not.toBeNull()
    const { event } = fakeEvent("/account/", { cookie: phone })
    const input = { redirectTo: "/", everywhere: true }
    expect(await outcome(signOut(event, strict, input))).toEqual(new Redirect(303, "/"))
    expect(await sessionOf(strict, laptop)).toBeNull()
  })

  it("without everywhere, leaves the other devices signed in", async () => {
    const strict = strictRevocation()
    const phone = await deviceCookie(strict)
    const laptop = await deviceCookie(strict)
    const { event } = fakeEvent("/account/", { cookie: phone })
    await outcome(signOut(event, strict, { redirectTo: "/" }))
    expect(await sessionOf(strict, phone)).toBeNull()
    expect(await sessionOf(strict, laptop)).not.toBeNull()
  })

  it("ends with a 303 to redirectTo", async () => {
    const { event } = fakeEvent("/account/")
    expect(await outcome(signOut(event, config, { redirectTo: "/bye/" }))).toEqual(
      new Redirect(303, "/bye/"),
    )
  })
})

describe("onRequest under basePath", () => {
  it("answers Qwik's data request for a core page with 204, so its client loads the page", async () => {
    const { event } = fakeEvent("/auth/signin?error=CredentialsSignin", {
      qdata: true,
      method: "GET",
    })
    const thrown = (await outcome(handleRequest(event, config))) as Sent
    expect(thrown).toBeInstanceOf(Sent)
    expect(thrown.response.status).toBe(204)
  })

  it("an OAuth callback without its check cookies (expired, other browser): the sign-in page with InvalidCheck, never a 5xx", async () => {
    const { event } = fakeEvent("/auth/callback/github?code=c&state=s", { method: "GET" })
    const thrown = (await outcome(handleRequest(event, config))) as Redirect
    expect(thrown).toBeInstanceOf(Redirect)
    expect(thrown.status).toBe(302)
    const location = new URL(thrown.location, ORIGIN)
    expect(location.pathname).toBe("/auth/signin")
    expect(location.searchParams.get("error")).toBe("InvalidCheck")
  })

  it("gives an unknown action the core's typed 400, not the app's 404", async () => {
    const { event } = fakeEvent("/auth/nope", { method: "GET" })
    const thrown = (await outcome(handleRequest(event, config))) as Sent
    expect(thrown.response.status).toBe(400)
    expect(await thrown.response.json()).toMatchObject({ error: { type: "UnknownAction" } })
  })
})
