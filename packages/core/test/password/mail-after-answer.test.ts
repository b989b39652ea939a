/**
 * Issue 42, item 1: nothing to learn from timing. The mail of sign-up, "send the link again",
 * "forgot password" and an address change leaves after the answer, and so does everything that
 * depends on whether the address has an account (the lookup, the link minted, the per-address
 * mail counter): the request does the same work, adapter call for adapter call, for an address
 * with an account and one without, however slow the mail server. Shown without a clock: the
 * sender is not even called before the answer, and the adapter calls made inside the request
 * are recorded and compared.
 */
import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { Auth, flushDeferred } from "../../src/index.js"
import type { Adapter } from "../../src/kernel/types/adapters.js"
import Password, { type SendPasswordMailParams } from "../../src/providers/password.js"
import { MemoryStore } from "../../src/store.js"
import type { AuthConfig } from "../../src/types.js"
import { Jar, req, SECRET } from "../auth/helpers.js"
import { fastHasher, GOOD } from "./helpers.js"

/** An adapter that records the names of the methods called on it, while `recording` is on. */
function recordingAdapter() {
  const calls: string[] = []
  const state = { recording: false }
  const inner = MemoryAdapter()
  const adapter = new Proxy(inner, {
    get(target, name, receiver) {
      const value = Reflect.get(target, name, receiver)
      if (typeof value !== "function") return value
      return (...args: unknown[]) => {
        if (state.recording) calls.push(String(name))
        return value.apply(target, args)
      }
    },
  }) as Adapter
  return { adapter, calls, state }
}

function setup() {
  const { adapter, calls, state } = recordingAdapter()
  const sent: SendPasswordMailParams[] = []
  // A mail server that takes 200 ms per mail.
  const slowSender = (params: SendPasswordMailParams) =>
    new Promise<void>((resolve) =>
      setTimeout(() => {
        sent.push(params)
        resolve()
      }, 200),
    )
  const called: string[] = []
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter,
    store: new MemoryStore(),
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    providers: [
      Password({
        hasher: fastHasher(),
        sendPasswordMail: (params) => {
          called.push(params.identifier)
          return slowSender(params)
        },
      }),
    ],
  }
  /** The adapter calls one request makes before its answer, and whether a mail went out by then. */
  async function answer(path: string, body: Record<string, string>, jar = new Jar()) {
    calls.length = 0
    called.length = 0
    state.recording = true
    const res = await Auth(
      req(path, { json: body, jar, headers: { accept: "application/json" } }),
      config,
    )
    state.recording = false
    const during = [...calls]
    const mailedBefore = called.length
    jar.take(res)
    await flushDeferred()
    return { status: res.status, body: await res.text(), during, mailedBefore, jar }
  }
  return { config, adapter, sent, answer }
}

async function provenUser(adapter: Adapter, email: string) {
  const user = await adapter.createUser!({
    id: crypto.randomUUID(),
    email,
    emailVerified: new Date(),
  })
  await adapter.setPasswordHash!(user.id, await fastHasher().hash(GOOD))
  return user
}

describe("mail leaves after the answer (issue 42, item 1)", () => {
  it("forgot: the same answer and the same adapter work for a known and an unknown address; the mail after", async () => {
    const app = setup()
    await provenUser(app.adapter, "ann@example.com")
    const known = await app.answer("/auth/password/forgot", { email: "ann@example.com" })
    const unknown = await app.answer("/auth/password/forgot", { email: "nobody@example.com" })
    expect(known.mailedBefore).toBe(0)
    expect(known.during).toEqual(unknown.during)
    expect({ ...known, during: [], jar: undefined }).toEqual({
      ...unknown,
      during: [],
      jar: undefined,
    })
    expect(app.sent.map((m) => [m.purpose, m.identifier])).toEqual([["reset", "ann@example.com"]])
  })

  it("sign-up: a new address and a held one do the same work before the answer", async () => {
    const app = setup()
    await provenUser(app.adapter, "ann@example.com")
    const held = await app.answer("/auth/password/signup", {
      email: "ann@example.com",
      password: GOOD,
    })
    const fresh = await app.answer("/auth/password/signup", {
      email: "new@example.com",
      password: GOOD,
    })
    expect(held.mailedBefore).toBe(0)
    expect(fresh.mailedBefore).toBe(0)
    expect(held.during).toEqual(fresh.during)
    expect(held.status).toBe(fresh.status)
    expect(held.body).toBe(fresh.body)
    expect(app.sent.map((m) => m.purpose).sort()).toEqual(["account-exists", "verify"])
    expect(await app.adapter.getUserByEmail!("new@example.com")).not.toBeNull()
  })

  it("send the link again: an unproven password account and an unknown address do the same work", async () => {
    const app = setup()
    await app.answer("/auth/password/signup", { email: "una@example.com", password: GOOD })
    const due = await app.answer("/auth/password/resend", { email: "una@example.com" })
    const none = await app.answer("/auth/password/resend", { email: "nobody@example.com" })
    expect(due.mailedBefore).toBe(0)
    expect(due.during).toEqual(none.during)
    expect(app.sent.filter((m) => m.purpose === "verify")).toHaveLength(2)
  })

  it("an address change: a free address and one another account holds do the same work", async () => {
    const app = setup()
    await provenUser(app.adapter, "ann@example.com")
    await provenUser(app.adapter, "held@example.com")
    const jar = new Jar()
    jar.take(
      await Auth(
        req("/auth/callback/password", { form: { email: "ann@example.com", password: GOOD }, jar }),
        app.config,
      ),
    )
    const body = (email: string) => ({ email, currentPassword: GOOD })
    const free = await app.answer("/auth/account/email-change", body("free@example.com"), jar)
    const held = await app.answer("/auth/account/email-change", body("held@example.com"), jar)
    expect(free.status).toBe(200)
    expect(free.mailedBefore).toBe(0)
    expect(free.during).toEqual(held.during)
    expect(free.body).toBe(held.body)
    expect(app.sent.map((m) => [m.purpose, m.identifier])).toEqual([
      ["email-change", "free@example.com"],
      ["email-change-notice", "ann@example.com"],
      ["email-change-notice", "ann@example.com"],
    ])
  })

  it("a send that fails is tried again, then logged; the answer never waits for it", async () => {
    const errors: Error[] = []
    let tries = 0
    const adapter = MemoryAdapter()
    await provenUser(adapter, "ann@example.com")
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      adapter,
      store: new MemoryStore(),
      logger: { error: (e) => void errors.push(e), warn: () => {}, debug: () => {} },
      providers: [
        Password({
          hasher: fastHasher(),
          sendPasswordMail: () => {
            tries++
            throw new Error("421 service not available")
          },
        }),
      ],
    }
    const res = await Auth(
      req("/auth/password/forgot", {
        json: { email: "ann@example.com" },
        headers: { accept: "application/json" },
      }),
      config,
    )
    expect(res.status).toBe(200)
    expect(tries).toBe(0)
    await flushDeferred()
    expect(tries).toBe(3)
    expect(errors).toHaveLength(1)
    expect(errors[0]).toMatchObject({ type: "EmailSignInError", details: { purpose: "reset" } })
  })
})
