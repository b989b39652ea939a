/**
 * The account binding against the real core: `requireRecentAuth`'s redirects (signed out, stale,
 * unknown sign-in time), the failure an account action returns (typed, with a message a person
 * can act on and the sign-in URL when a fresh sign-in is needed), and `useAccount` signed out.
 */
import { type Adapter, Auth } from "@latchkey/core"
import { MemoryAdapter } from "@latchkey/core/adapters/memory"
import { encode } from "@latchkey/core/jwt"
import Credentials from "@latchkey/core/providers/credentials"
import GitHub from "@latchkey/core/providers/github"
import Passkey from "@latchkey/core/providers/passkey"
import { MemoryStore } from "@latchkey/core/store"
import { describe, expect, it } from "vitest"
import {
  accountAction,
  errorTypeOf,
  loadAccount,
  requireRecentSignIn,
  signInUrl,
} from "../src/account.js"
import { readSessionFromMap, setSession } from "../src/shared-map.js"
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

/**
 * Database sessions in the core's memory adapter: two users, each with a passkey and a session
 * signed in `age` seconds ago; Alice also has a GitHub account linked.
 */
async function accountWorld(age = 5) {
  const adapter = MemoryAdapter() as Required<Adapter>
  const config = makeConfig({
    adapter,
    session: { strategy: "database" },
    experimental: { enableWebAuthn: true },
    providers: [Passkey(), GitHub({ clientId: "id", clientSecret: "secret" })],
  })
  const expires = new Date(Date.now() + 3_600_000)
  const authTime = new Date(Date.now() - age * 1000)
  for (const id of ["alice", "bob"]) {
    await adapter.createUser({ id, email: `${id}@example.com`, emailVerified: null })
    await adapter.createSession({ sessionToken: `${id}-token`, userId: id, expires, authTime })
    await adapter.createAuthenticator({
      credentialID: `${id}-cred`,
      userId: id,
      providerAccountId: `${id}-cred`,
      counter: 0,
      credentialBackedUp: false,
      credentialPublicKey: "cHVibGlj",
      credentialDeviceType: "singleDevice",
    })
  }
  await adapter.linkAccount({
    userId: "alice",
    type: "oauth",
    provider: "github",
    providerAccountId: "gh-1",
  })
  return { adapter, config, as: actionEventOf }
}

/** An action request of `user` (their session cookie) on `path`. */
function actionEventOf(user: string, path = "/account/", headers?: Record<string, string>) {
  const made = fakeEvent(path, { cookie: `authjs.session-token=${user}-token`, headers })
  return made.event as Parameters<typeof accountAction>[0]
}

describe("account actions (database sessions, memory adapter)", () => {
  it("useAccount: the user's passkeys, this session marked, linked accounts; no token", async () => {
    const { config, as } = await accountWorld()
    const data = await loadAccount(as("alice"), config)
    expect(data?.user.email).toBe("alice@example.com")
    expect(data?.recentAuth.recent).toBe(true)
    expect(data?.passkeys?.map((p) => p.id)).toEqual(["alice-cred"])
    expect(data?.sessions).toHaveLength(1)
    expect(data?.sessions?.[0]?.current).toBe(true)
    expect(data?.accounts).toEqual([
      { provider: "github", type: "oauth", providerAccountId: "gh-1" },
    ])
    expect(JSON.stringify(data)).not.toContain("alice-token")
  })

  it("rename: { ok: true }, and the name is stored", async () => {
    const { adapter, config, as } = await accountWorld()
    const input = { id: "alice-cred", name: "Work laptop" }
    expect(await accountAction(as("alice"), config, "passkey-rename", input)).toEqual({ ok: true })
    const [passkey] = await adapter.listAuthenticatorsByUserId("alice")
    expect(passkey?.name).toBe("Work laptop")
  })

  it("another user's passkey: AccountItemNotFound (404), nothing changed", async () => {
    const { adapter, config, as } = await accountWorld()
    const result = await accountAction(as("alice"), config, "passkey-delete", { id: "bob-cred" })
    expect(result).toMatchObject({
      failed: true,
      status: 404,
      error: { type: "AccountItemNotFound", message: expect.stringContaining("no longer exists") },
      formErrors: [expect.stringContaining("no longer exists")],
    })
    expect(await adapter.listAuthenticatorsByUserId("bob")).toHaveLength(1)
  })

  it("a stale sign-in: ReauthenticationRequired with the sign-in URL back to the page", async () => {
    const { adapter, config, as } = await accountWorld(3600)
    const event = as("alice", "/account/?qaction=x")
    const result = await accountAction(event, config, "passkey-delete", { id: "alice-cred" })
    expect(result).toMatchObject({
      failed: true,
      status: 403,
      error: { type: "ReauthenticationRequired" },
      signInUrl: "/auth/signin?callbackUrl=%2Faccount%2F&reauth=1",
    })
    expect((result as { error: { message: string } }).error.message).toMatch(/sign in again/)
    expect(await adapter.listAuthenticatorsByUserId("alice")).toHaveLength(1)
  })

  it("the last way to sign in: LastSignInMethod (409) with what to do instead", async () => {
    const { adapter, config, as } = await accountWorld()
    // Bob has one passkey and nothing else.
    const result = await accountAction(as("bob"), config, "passkey-delete", { id: "bob-cred" })
    expect(result).toMatchObject({ status: 409, error: { type: "LastSignInMethod" } })
    expect((result as { error: { message: string } }).error.message).toMatch(/Add another/)
    expect(await adapter.listAuthenticatorsByUserId("bob")).toHaveLength(1)
    // Alice also has GitHub: her passkey can go, then GitHub is the last one.
    const alice = { id: "alice-cred" }
    expect(await accountAction(as("alice"), config, "passkey-delete", alice)).toEqual({ ok: true })
    const unlink = { provider: "github", providerAccountId: "gh-1" }
    const refused = await accountAction(as("alice"), config, "account-unlink", unlink)
    expect(refused).toMatchObject({ status: 409, error: { type: "LastSignInMethod" } })
  })

  it("a cross-site submission: refused by the core's CSRF check, nothing changed", async () => {
    const { adapter, config, as } = await accountWorld()
    const event = as("alice", "/account/", { origin: "https://evil.example" })
    const input = { id: "alice-cred", name: "pwned" }
    const result = await accountAction(event, config, "passkey-rename", input)
    expect(result).toMatchObject({ status: 403, error: { type: "MissingCSRF" } })
    expect((await adapter.listAuthenticatorsByUserId("alice"))[0]?.name ?? null).toBeNull()
  })

  it("ending this session: the page renders signed out", async () => {
    const { config, as } = await accountWorld()
    const event = as("alice")
    const data = await loadAccount(event, config)
    setSession(event, { user: { email: "alice@example.com" }, expires: "" })
    const id = data!.sessions![0]!.id
    expect(await accountAction(event, config, "session-revoke", { id })).toEqual({ ok: true })
    expect(readSessionFromMap(event)).toBeNull()
    expect(await loadAccount(as("alice"), config)).toBeNull()
  })

  it("signed out: SessionRequired with a sign-in URL (no reauth)", async () => {
    const { config } = await accountWorld()
    const { event } = fakeEvent("/account/")
    const result = await accountAction(
      event as Parameters<typeof accountAction>[0],
      config,
      "sessions-revoke-others",
      {},
    )
    expect(result).toMatchObject({
      status: 401,
      error: { type: "SessionRequired" },
      signInUrl: "/auth/signin?callbackUrl=%2Faccount%2F",
    })
  })
})

describe("account actions (JWT sessions)", () => {
  /** Sign `u1` in through the core's credentials callback; resolves the session cookie pair. */
  async function signIn(config: QwikAuthConfig): Promise<string> {
    const response = await Auth(
      new Request(`${ORIGIN}/auth/callback/credentials`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "sec-fetch-site": "same-origin",
        },
        body: "email=a%40b.c",
      }),
      config,
    )
    const line = response.headers.getSetCookie().find((c) => c.startsWith("authjs.session-token="))
    expect(line).toBeDefined()
    return line!.split(";")[0]!
  }

  it("ending every other session re-issues this one; the loader after it sees the new cookie", async () => {
    const adapter = MemoryAdapter() as Required<Adapter>
    const config = makeConfig({ adapter, session: { strategy: "jwt", revocation: "strict" } })
    await adapter.createUser({ id: "u1", email: "a@b.c", emailVerified: null })
    const here = await signIn(config)
    await signIn(config)
    const { event, cookies } = fakeEvent("/account/", { cookie: here })
    const before = await loadAccount(event, config)
    expect(before?.sessions).toHaveLength(2)
    const result = await accountAction(
      event as Parameters<typeof accountAction>[0],
      config,
      "sessions-revoke-others",
      {},
    )
    expect(result).toEqual({ ok: true })
    // Qwik runs the loaders after the action in the same request.
    const after = await loadAccount(event, config)
    expect(after?.sessions?.map((s) => s.current)).toEqual([true])
    // The browser keeps the re-issued cookie, not a deletion.
    expect(cookies.get("authjs.session-token")).toBeTruthy()
    expect(cookies.get("authjs.session-token")).not.toBe(here.split("=")[1])
  })
})
