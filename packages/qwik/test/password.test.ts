/**
 * Password accounts through the binding: the per-IP sign-in limit counts `clientConn.ip` when no
 * proxy header is there, and the core's built-in password pages are served under the base path.
 */

import type { RequestEventAction } from "@builder.io/qwik-city"
import { Auth, flushDeferred } from "@latchkey/core"
import { MemoryAdapter } from "@latchkey/core/adapters/memory"
import Credentials from "@latchkey/core/providers/credentials"
import Passkey from "@latchkey/core/providers/passkey"
import Password, {
  createPasswordHasher,
  type SendPasswordMailParams,
} from "@latchkey/core/providers/password"
import { MemoryStore } from "@latchkey/core/store"
import { describe, expect, it } from "vitest"
import { Jar, req } from "../../core/test/auth/helpers.js"
import { accountAction } from "../src/account.js"
import { signIn } from "../src/actions.js"
import { handleRequest } from "../src/on-request.js"
import { passwordAction as runPasswordAction } from "../src/password.js"
import type { QwikAuthConfig } from "../src/types.js"
import { fakeEvent, outcome, Redirect, Sent } from "./fake-event.js"

/** A password action, and the mails it left for after its answer (sent before the test reads them). */
async function passwordAction(...args: Parameters<typeof runPasswordAction>) {
  const answer = await runPasswordAction(...args)
  await flushDeferred()
  return answer
}

const SECRET = "a-test-secret-that-is-at-least-32-bytes-long!!"
const GOOD = "tangerine-orbit-cabinet"

function config(): QwikAuthConfig {
  return {
    secret: SECRET,
    trustHost: true,
    store: new MemoryStore(),
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    providers: [
      Credentials({
        credentials: { username: {}, password: { type: "password" } },
        // Per-IP only: each attempt names another account.
        rateLimit: { perIp: { limit: 2, windowMs: 60_000 }, perAccount: false },
        authorize: () => null,
      }),
    ],
  }
}

async function attempt(c: QwikAuthConfig, n: number, ip: string | undefined) {
  const { event } = fakeEvent("/auth/callback/credentials", {
    headers: {
      origin: "http://127.0.0.1:5173",
      "sec-fetch-site": "same-origin",
      "content-type": "application/x-www-form-urlencoded",
    },
  })
  const request = new Request(event.request.url, {
    method: "POST",
    headers: event.request.headers,
    body: new URLSearchParams({ username: `user-${n}`, password: "x" }).toString(),
  })
  Object.assign(event, { request, clientConn: { ip } })
  const thrown = await outcome(handleRequest(event, c))
  if (thrown instanceof Redirect) return thrown.location
  if (thrown instanceof Sent) return `status ${thrown.response.status}`
  throw thrown
}

describe("per-IP limit without a proxy", () => {
  it("counts attempts by clientConn.ip", async () => {
    const c = config()
    expect(await attempt(c, 1, "203.0.113.9")).toContain("error=CredentialsSignin")
    expect(await attempt(c, 2, "203.0.113.9")).toContain("error=CredentialsSignin")
    expect(await attempt(c, 3, "203.0.113.9")).toContain("error=RateLimited")
    // Another client is not charged for them.
    expect(await attempt(c, 4, "203.0.113.10")).toContain("error=CredentialsSignin")
  })
})

describe("password pages through onRequest", () => {
  it("serves the core's built-in sign-up page under the base path", async () => {
    const c: QwikAuthConfig = {
      ...config(),
      adapter: MemoryAdapter(),
      providers: [Password({ sendPasswordMail: () => {} })],
    }
    const { event } = fakeEvent("/auth/password/signup", { method: "GET" })
    const thrown = await outcome(handleRequest(event, c))
    expect(thrown).toBeInstanceOf(Sent)
    const page = await (thrown as Sent).response.text()
    expect(page).toContain('action="http://127.0.0.1:5173/auth/password/signup"')
    expect(page).toContain('name="csrfToken"')
  })
})

describe("password actions (server bodies) against the real core", () => {
  function app() {
    const mails: SendPasswordMailParams[] = []
    const adapter = MemoryAdapter()
    const c: QwikAuthConfig = {
      ...config(),
      adapter,
      providers: [
        Password({
          hasher: createPasswordHasher({ algorithm: "pbkdf2-sha256", pbkdf2Iterations: 1000 }),
          sendPasswordMail: (p) => void mails.push(p),
        }),
      ],
    }
    return { c, mails, adapter }
  }
  function action(path: string) {
    return fakeEvent(path).event as RequestEventAction
  }

  it("sign-up answers ok whatever the address; a weak password fails with the policy's message", async () => {
    const { c, mails, adapter } = app()
    expect(
      await passwordAction(action("/signup/"), c, "signup", {
        email: "ann@example.com",
        password: GOOD,
      }),
    ).toEqual({ ok: true })
    expect(
      await passwordAction(action("/signup/"), c, "signup", {
        email: "ann@example.com",
        password: GOOD,
      }),
    ).toEqual({ ok: true })
    expect(mails.map((m) => m.purpose)).toEqual(["verify", "account-exists"])
    expect(await adapter.getUserByEmail!("ann@example.com")).not.toBeNull()
    const weak = await passwordAction(action("/signup/"), c, "signup", {
      email: "bob@example.com",
      password: "short",
    })
    expect(weak).toMatchObject({
      failed: true,
      status: 400,
      error: {
        type: "PasswordRejected",
        reason: "too-short",
        message: expect.stringContaining("at least 8"),
      },
      formErrors: [expect.stringContaining("at least 8")],
    })
  })

  it("a reset signs this browser in and returns where to go; a used link fails as Verification", async () => {
    const { c, mails } = app()
    const signUp = fakeEvent("/signup/")
    await passwordAction(signUp.event as RequestEventAction, c, "signup", {
      email: "ann@example.com",
      password: GOOD,
    })
    // Confirmed in the browser that signed up: the one-click confirmation.
    const browser = [...signUp.cookies].map(([name, value]) => `${name}=${value}`).join("; ")
    const verify = Object.fromEntries(new URL(mails[0]!.url!).searchParams)
    const confirm = fakeEvent("/verify/", { cookie: browser }).event as RequestEventAction
    expect(await passwordAction(confirm, c, "verify" as never, verify)).toEqual({
      ok: true,
    })
    expect(
      await passwordAction(action("/forgot/"), c, "forgot", { email: "ann@example.com" }),
    ).toEqual({ ok: true })
    const link = Object.fromEntries(new URL(mails.at(-1)!.url!).searchParams)
    const { event, cookies } = fakeEvent("/reset/")
    const done = await passwordAction(event as RequestEventAction, c, "reset", {
      ...link,
      password: "fresh-new-password",
    })
    expect(done).toMatchObject({ ok: true, url: expect.any(String) })
    expect(cookies.has("authjs.session-token")).toBe(true)
    const again = await passwordAction(action("/reset/"), c, "reset", {
      ...link,
      password: "other-new-password",
    })
    expect(again).toMatchObject({ failed: true, error: { type: "Verification" } })
  })
})

describe("useChangePassword (server body)", () => {
  it("a weak new password fails with the policy's message and rule; a wrong current one as CredentialsSignin", async () => {
    const adapter = MemoryAdapter()
    const c: QwikAuthConfig = {
      ...config(),
      adapter,
      session: { strategy: "jwt" },
      providers: [
        Password({
          hasher: createPasswordHasher({ algorithm: "pbkdf2-sha256", pbkdf2Iterations: 1000 }),
          sendPasswordMail: () => {},
        }),
      ],
    }
    const user = await adapter.createUser!({
      id: "u1",
      email: "ann@example.com",
      emailVerified: new Date(),
    })
    await adapter.setPasswordHash!(
      user.id,
      await createPasswordHasher({ algorithm: "pbkdf2-sha256", pbkdf2Iterations: 1000 }).hash(GOOD),
    )
    const jar = new Jar()
    const csrf = await Auth(req("/auth/csrf", { jar }), c)
    jar.take(csrf)
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    jar.take(
      await Auth(
        req("/auth/callback/password", {
          jar,
          form: { csrfToken, email: "ann@example.com", password: GOOD },
        }),
        c,
      ),
    )
    const cookie = jar.header()
    const weak = await accountAction(
      fakeEvent("/account/", { cookie }).event as RequestEventAction,
      c,
      "password-change",
      { currentPassword: GOOD, password: "password1" },
    )
    expect(weak).toMatchObject({
      failed: true,
      status: 400,
      error: {
        type: "PasswordRejected",
        reason: "common",
        message: expect.stringContaining("most common"),
      },
    })
    const wrong = await accountAction(
      fakeEvent("/account/", { cookie }).event as RequestEventAction,
      c,
      "password-change",
      { currentPassword: "not-it-at-all", password: "brand-new-secret" },
    )
    expect(wrong).toMatchObject({
      failed: true,
      status: 403,
      error: { type: "CredentialsSignin", message: "The current password is not right." },
    })
    const ok = await accountAction(
      fakeEvent("/account/", { cookie }).event as RequestEventAction,
      c,
      "password-change",
      { currentPassword: GOOD, password: "brand-new-secret" },
    )
    expect(ok).toEqual({ ok: true })
  })
})

describe("useRemovePassword (server body)", () => {
  it("needs the current password besides the session, and ends every other session (issue 41, item 6)", async () => {
    const adapter = MemoryAdapter()
    const hasher = createPasswordHasher({ algorithm: "pbkdf2-sha256", pbkdf2Iterations: 1000 })
    const c: QwikAuthConfig = {
      ...config(),
      adapter,
      session: { strategy: "database" },
      experimental: { enableWebAuthn: true },
      providers: [Password({ hasher, sendPasswordMail: () => {} }), Passkey()],
    }
    const user = await adapter.createUser!({
      id: "u1",
      email: "ann@example.com",
      emailVerified: new Date(),
    })
    await adapter.setPasswordHash!(user.id, await hasher.hash(GOOD))
    // A passkey too, so the password is not the last way in.
    await adapter.createAuthenticator!({
      credentialID: "cred-1",
      userId: user.id,
      providerAccountId: "cred-1",
      counter: 0,
      credentialBackedUp: false,
      credentialPublicKey: "key",
      credentialDeviceType: "singleDevice",
    })
    async function signedIn() {
      const jar = new Jar()
      const csrf = await Auth(req("/auth/csrf", { jar }), c)
      jar.take(csrf)
      const { csrfToken } = (await csrf.json()) as { csrfToken: string }
      const form = { csrfToken, email: "ann@example.com", password: GOOD }
      jar.take(await Auth(req("/auth/callback/password", { jar, form }), c))
      return jar.header()
    }
    const mine = await signedIn()
    const other = await signedIn()
    function remove(input: Record<string, string>) {
      const { event } = fakeEvent("/account/", { cookie: mine })
      return accountAction(event as RequestEventAction, c, "password-remove", input)
    }
    expect(await remove({})).toMatchObject({ failed: true, status: 403 })
    expect(await adapter.getPasswordHash!(user.id)).not.toBeNull()
    expect(await remove({ currentPassword: GOOD })).toEqual({ ok: true })
    expect(await adapter.getPasswordHash!(user.id)).toBeNull()
    const session = await Auth(req("/auth/session", { headers: { cookie: other } }), c)
    expect(await session.json()).toBeNull()
  })
})

describe("useSignIn with the Password provider (server body)", () => {
  it("signs in with { providerId: 'password', options: { email, password } }", async () => {
    const adapter = MemoryAdapter()
    const hasher = createPasswordHasher({ algorithm: "pbkdf2-sha256", pbkdf2Iterations: 1000 })
    const c: QwikAuthConfig = {
      ...config(),
      adapter,
      providers: [Password({ hasher, sendPasswordMail: () => {} })],
    }
    const user = await adapter.createUser!({
      id: "u1",
      email: "ann@example.com",
      emailVerified: new Date(),
    })
    await adapter.setPasswordHash!(user.id, await hasher.hash(GOOD))
    const { event, cookies } = fakeEvent("/login/")
    const thrown = await outcome(
      signIn(event, c, {
        providerId: "password",
        options: { email: "ann@example.com", password: GOOD, redirectTo: "/home/" },
      }),
    )
    expect(thrown).toEqual(new Redirect(303, "/home/"))
    expect(cookies.has("authjs.session-token")).toBe(true)
  })
})
