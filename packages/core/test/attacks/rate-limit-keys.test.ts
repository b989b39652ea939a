/**
 * Issue 23 items 3 and 5, written as the attacks: re-spelling the per-account key of the
 * credentials limit, escaping it with a non-string field, and probing or hammering the passkey
 * options endpoint.
 */
import { PasskeyClient, softwareAuthenticator } from "@latchkey/adapter-test/webauthn"
import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { Auth } from "../../src/index.js"
import Credentials from "../../src/providers/credentials.js"
import Passkey from "../../src/providers/passkey.js"
import { MemoryStore } from "../../src/store.js"
import type { AuthConfig } from "../../src/types.js"
import { ORIGIN, recordingLogger, req, SECRET } from "../auth/helpers.js"
import { postForm } from "../store/post-form.js"

function credentialsApp(
  credentials: Record<string, { type?: string }> = { username: {}, password: { type: "password" } },
) {
  let authorized = 0
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    store: new MemoryStore(),
    logger: recordingLogger().logger,
    providers: [
      Credentials({
        credentials,
        // The per-IP limit is off: the attacker has many addresses; the per-account one holds.
        rateLimit: { perIp: false },
        authorize: (c) => {
          authorized++
          return c.username === "victim" && c.password === "correct" ? { id: "v" } : null
        },
      }),
    ],
  }
  return { config, authorized: () => authorized }
}

const errorOf = (res: Response) =>
  new URL(res.headers.get("location") ?? "http://x/").searchParams.get("error")

describe("credentials: the per-account key comes from declared fields only", () => {
  it("attack: 30 guesses, each with a random extra `email` field, are limited at 10", async () => {
    const { config, authorized } = credentialsApp()
    const outcomes: (string | null)[] = []
    for (let i = 0; i < 30; i++) {
      const fields = {
        username: "victim",
        password: `guess-${i}`,
        email: `${crypto.randomUUID()}@x.example`,
      }
      outcomes.push(
        errorOf(await postForm(config, "/auth/callback/credentials", fields, `198.51.100.${i}`)),
      )
    }
    expect(authorized()).toBe(10)
    expect(outcomes.filter((e) => e === "RateLimited")).toHaveLength(20)
  })

  it("attack: re-spelling the name (case, spaces, NFKC width) shares one counter", async () => {
    const { config, authorized } = credentialsApp()
    const spellings = ["victim", "Victim", " VICTIM ", "ｖｉｃｔｉｍ"]
    for (let i = 0; i < 12; i++) {
      const fields = { username: spellings[i % spellings.length]!, password: `guess-${i}` }
      await postForm(config, "/auth/callback/credentials", fields)
    }
    expect(authorized()).toBe(10)
  })

  it('attack: `username: ["victim"]` in JSON is a 400 before authorize runs', async () => {
    const { config, authorized } = credentialsApp()
    const res = await Auth(
      req("/auth/callback/credentials", {
        json: { username: ["victim"], password: "guess" },
        headers: { origin: ORIGIN },
      }),
      config,
    )
    expect(res.status).toBe(400)
    expect(((await res.json()) as { error: { type: string } }).error.type).toBe("InvalidRequest")
    expect(authorized()).toBe(0)
  })

  it("no fields declared: every conventional account field counts, so an added field cannot escape", async () => {
    const { config, authorized } = credentialsApp({})
    for (let i = 0; i < 20; i++) {
      const fields = { username: "victim", password: `guess-${i}`, email: `${i}@x.example` }
      await postForm(config, "/auth/callback/credentials", fields)
    }
    expect(authorized()).toBe(10)
  })

  it("owner after the attack: a correct sign-in resets the counter (once the window allows it)", async () => {
    const { config } = credentialsApp()
    for (let i = 0; i < 3; i++) {
      await postForm(config, "/auth/callback/credentials", { username: "victim", password: "x" })
    }
    const ok = await postForm(config, "/auth/callback/credentials", {
      username: "victim",
      password: "correct",
    })
    expect(errorOf(ok)).toBeNull()
  })
})

describe("passkey options: no enumeration, limited through the store", () => {
  function passkeyApp(store = new MemoryStore()) {
    const adapter = MemoryAdapter()
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      adapter,
      store,
      experimental: { enableWebAuthn: true },
      providers: [Passkey()],
      logger: recordingLogger().logger,
    }
    const client = (ip = "192.0.2.10") => {
      const browser = new PasskeyClient({ Auth, config, origin: ORIGIN })
      const send = browser.send.bind(browser)
      browser.send = (path, init = {}) =>
        send(path, { ...init, headers: { ...(init.headers as object), "x-forwarded-for": ip } })
      return browser
    }
    return { adapter, config, client }
  }

  it("attack: probing a known and an unknown address gives the same status and action", async () => {
    const { client } = passkeyApp()
    await client("192.0.2.1").register(softwareAuthenticator(), { email: "known@example.com" })
    const probe = client("192.0.2.2")
    const known = await probe.options({ email: "known@example.com" })
    const unknown = await probe.options({ email: "unknown@example.com" })
    expect([known.status, known.body.action]).toEqual([unknown.status, unknown.body.action])
    expect(known.body.options.user.name).toBe("known@example.com")
    expect(known.body.options.excludeCredentials).toEqual(unknown.body.options.excludeCredentials)
  })

  it("attack: one client probing many addresses is cut off at 100 requests (429)", async () => {
    const { client } = passkeyApp()
    const probe = client("203.0.113.9")
    const statuses: number[] = []
    for (let i = 0; i < 101; i++) {
      statuses.push((await probe.options({ email: `user${i}@example.com` })).status)
    }
    expect(statuses.slice(0, 100).every((s) => s === 200)).toBe(true)
    const refused = await probe.options({ email: "another@example.com" })
    expect(refused.status).toBe(429)
    expect(refused.body.error?.type).toBe("RateLimited")
    // Another client is not affected.
    expect((await client("203.0.113.10").options()).status).toBe(200)
  })

  it("attack: many clients asking for one address are cut off at 10; the store is shared", async () => {
    const store = new MemoryStore()
    const a = passkeyApp(store)
    const b = passkeyApp(store)
    const statuses: number[] = []
    for (let i = 0; i < 11; i++) {
      const app = i % 2 === 0 ? a : b
      statuses.push(
        (await app.client(`198.51.100.${i}`).options({ email: "Target@Example.com" })).status,
      )
    }
    expect(statuses).toEqual([...Array(10).fill(200), 429])
    // Signing in with a discoverable passkey (no address) still works for everyone.
    expect((await a.client("198.51.100.77").options()).status).toBe(200)
  })
})
