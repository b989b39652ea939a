/**
 * What the core keeps in `config.store`: sign-in limits (credentials per IP and per account,
 * email), consumed OAuth states and used email links. Each protection is shown to depend on
 * the store (two flows sharing one store see each other; a failing store fails closed).
 */

import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { requestEmailSignIn } from "../../src/features/email/request.js"
import { verifyEmailSignIn } from "../../src/features/email/verify.js"
import { createState, openCheck } from "../../src/features/oauth/checks.js"
import { Auth } from "../../src/index.js"
import {
  InvalidCheck,
  RateLimited,
  StoreError,
  Verification,
} from "../../src/kernel/errors/errors.js"
import Credentials from "../../src/providers/credentials.js"
import { MemoryStore, type Store } from "../../src/store.js"
import type { AuthConfig } from "../../src/types.js"
import { recordingLogger, SECRET } from "../auth/helpers.js"
import {
  capturingProvider,
  SECRET as EMAIL_SECRET,
  linkParams,
  requestParams,
  stampOf,
} from "../email/helpers.js"
import { flowContext } from "../oauth/harness/flow.js"
import { postForm } from "./post-form.js"

/** A store whose every command fails, as a Redis client does during an outage. */
function deadStore(): Store {
  const fail = () => Promise.reject(new StoreError("connection refused"))
  return { hit: fail, consumeOnce: fail, get: fail, set: fail, delete: fail }
}

function credentialsConfig(store: Store, extra: Partial<AuthConfig> = {}) {
  const { logger, calls } = recordingLogger()
  let authorizeCalls = 0
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    logger,
    store,
    providers: [
      Credentials({
        credentials: { username: {}, password: {} },
        authorize: (c) => {
          authorizeCalls++
          return c.username === "alice" && c.password === "right" ? { id: "a", name: "A" } : null
        },
      }),
    ],
    ...extra,
  }
  return { config, calls, authorized: () => authorizeCalls }
}

const postCredentials = (config: AuthConfig, fields: Record<string, string>, ip?: string) =>
  postForm(config, "/auth/callback/credentials", fields, ip)

const errorOf = (res: Response) => new URL(res.headers.get("location") ?? "http://x/").searchParams

describe("credentials sign-in limits", () => {
  it("10 attempts per account name per 15 minutes, then RateLimited before authorize runs", async () => {
    const { config, authorized } = credentialsConfig(new MemoryStore())
    for (let i = 0; i < 10; i++) {
      const res = await postCredentials(
        config,
        { username: "alice", password: "wrong" },
        `192.0.2.${i}`,
      )
      expect(errorOf(res).get("error")).toBe("CredentialsSignin")
    }
    // From yet another IP, even with the right password: the account's limit holds.
    const res = await postCredentials(
      config,
      { username: "Alice ", password: "right" },
      "198.51.100.7",
    )
    expect(errorOf(res).get("error")).toBe("RateLimited")
    expect(authorized()).toBe(10)
  })

  it("a successful sign-in resets the account's count; failures still add up", async () => {
    const { config } = credentialsConfig(new MemoryStore())
    const attempt = (password: string) =>
      postCredentials(config, { username: "alice", password }).then((r) => errorOf(r).get("error"))
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 9; i++) expect(await attempt("wrong")).toBe("CredentialsSignin")
      expect(await attempt("right")).toBeNull()
    }
    for (let i = 0; i < 10; i++) await attempt("wrong")
    expect(await attempt("right")).toBe("RateLimited")
  })

  it("an unknown account is limited exactly like a real one (no user enumeration)", async () => {
    const { config } = credentialsConfig(new MemoryStore())
    const answers: string[] = []
    for (const username of ["alice", "nobody-here"]) {
      for (let i = 0; i < 11; i++) {
        const res = await postCredentials(config, { username, password: "x" }, `203.0.113.${i}`)
        answers.push(`${res.status} ${errorOf(res).get("error")}`)
      }
    }
    expect(answers.slice(0, 11)).toEqual(answers.slice(11))
    expect(answers[10]).toMatch(/RateLimited$/)
  })

  it("50 attempts per client IP across accounts; the 429 page says what to do", async () => {
    const { config } = credentialsConfig(new MemoryStore())
    for (let i = 0; i < 50; i++) {
      await postCredentials(config, { username: `user${i}`, password: "x" }, "192.0.2.200")
    }
    const res = await postCredentials(config, { username: "fresh", password: "x" }, "192.0.2.200")
    expect(errorOf(res).get("error")).toBe("RateLimited")
    const location = new URL(res.headers.get("location")!)
    // The window's remaining seconds, on the redirect and on the page it leads to.
    const seconds = Number(location.searchParams.get("retryAfter"))
    expect(seconds).toBeGreaterThan(14 * 60)
    expect(seconds).toBeLessThanOrEqual(15 * 60)
    expect(res.headers.get("retry-after")).toBe(String(seconds))
    const page = await Auth(new Request(location), config)
    expect(page.status).toBe(429)
    expect(page.headers.get("retry-after")).toBe(String(seconds))
    const text = await page.text()
    expect(text).toContain("Too many attempts")
    expect(text).toContain("try again in about 15 minutes")
  })

  it("two configs sharing one store share the count (two instances behind a balancer)", async () => {
    const store = new MemoryStore()
    const rule = { limit: 3, windowMs: 60_000 }
    const make = () =>
      credentialsConfig(store, {
        providers: [
          Credentials({ authorize: () => null, rateLimit: { perAccount: rule, perIp: false } }),
        ],
      }).config
    const [a, b] = [make(), make()]
    const seen: (string | null)[] = []
    for (const config of [a, b, a, b]) {
      seen.push(
        errorOf(await postCredentials(config, { username: "bob", password: "x" })).get("error"),
      )
    }
    expect(seen).toEqual([
      "CredentialsSignin",
      "CredentialsSignin",
      "CredentialsSignin",
      "RateLimited",
    ])
  })

  it("a store that cannot answer refuses the attempt (fail closed): a 503 'temporarily unavailable', not RateLimited", async () => {
    const { config, calls, authorized } = credentialsConfig(deadStore())
    const res = await postCredentials(config, { username: "alice", password: "right" })
    expect(errorOf(res).get("error")).toBe("StoreError")
    expect(res.headers.get("retry-after")).toBe("30")
    expect(authorized()).toBe(0)
    const logged = calls.filter((c) => c.level === "error").map((c) => c.args[0])
    expect(logged).toHaveLength(1)
    expect(logged[0]).toBeInstanceOf(StoreError)
    expect(logged.some((e) => e instanceof RateLimited)).toBe(false)
    const page = await Auth(new Request(res.headers.get("location")!), config)
    expect(page.status).toBe(503)
    expect(page.headers.get("retry-after")).toBe("30")
    const text = await page.text()
    expect(text).toContain("temporarily unavailable")
    expect(text).not.toContain("Too many attempts")
  })

  it("failOpen: true lets attempts through while the store is down", async () => {
    const { config } = credentialsConfig(deadStore(), {
      providers: [Credentials({ authorize: () => ({ id: "a" }), rateLimit: { failOpen: true } })],
      // Revocation state lives in the same dead store: this test is about the limits only.
      session: { revocation: "off" },
    })
    const res = await postCredentials(config, { username: "alice", password: "right" })
    expect(errorOf(res).get("error")).toBeNull()
    // Signed in and sent on to the app (not to the error or sign-in page).
    expect(res.headers.get("location")).toMatch(/^http:\/\/app\.example\.com\/?$/)
  })

  it("rateLimit: false turns the limits off", async () => {
    const { config } = credentialsConfig(deadStore(), {
      providers: [Credentials({ authorize: () => null, rateLimit: false })],
    })
    const res = await postCredentials(config, { username: "alice", password: "x" })
    expect(errorOf(res).get("error")).toBe("CredentialsSignin")
  })
})

describe("email sign-in limits and links in the store", () => {
  it("the per-IP limit fails closed on a dead store: StoreError (not RateLimited), no mail", async () => {
    const { provider, sent } = capturingProvider({ rateLimit: {} })
    const params = {
      ...requestParams(provider, MemoryAdapter()),
      ip: "192.0.2.5",
      store: deadStore(),
    }
    await expect(requestEmailSignIn(params)).rejects.toBeInstanceOf(StoreError)
    expect(sent).toHaveLength(0)
  })

  it("a used link is remembered in the store: an adapter that fails to delete cannot replay it", async () => {
    const adapter = MemoryAdapter()
    const { provider, sent } = capturingProvider()
    await requestEmailSignIn(requestParams(provider, adapter))
    const link = linkParams(sent[0]!.url)
    // An adapter whose lookup does not delete (a non-atomic implementation): the row stays.
    const use = adapter.useVerificationToken!.bind(adapter)
    const create = adapter.createVerificationToken!.bind(adapter)
    adapter.useVerificationToken = async (p) => {
      const row = await use(p)
      if (row) await create(row)
      return row
    }
    const verify = (store?: Store) =>
      verifyEmailSignIn({ stampOf, provider, adapter, secret: EMAIL_SECRET, ...link, store })
    const store = new MemoryStore()
    await expect(verify(store)).resolves.toMatchObject({ isNewUser: true })
    const replay = await verify(store).catch((e) => e)
    expect(replay).toBeInstanceOf(Verification)
    expect(replay.details.reason).toBe("replayed")
    // Without the store's memory, this adapter would have let it through:
    await expect(verify(new MemoryStore())).resolves.toBeTruthy()
    const down = await verify(deadStore()).catch((e) => e)
    expect(down.details.reason).toBe("store-unavailable")
  })
})

describe("consumed OAuth states in the store", () => {
  it("a state used on one instance is refused on another sharing the store", async () => {
    const store = new MemoryStore()
    const one = { ...flowContext("github"), store }
    const two = { ...flowContext("github"), store }
    const { cookie } = await createState(one, "github", false)
    const jar = { [cookie.name]: cookie.value }
    await expect(openCheck(one, "state", "github", jar)).resolves.toBeTypeOf("string")
    const replay = await openCheck(two, "state", "github", jar).catch((e) => e)
    expect(replay).toBeInstanceOf(InvalidCheck)
    expect(replay.details.reason).toBe("replayed")
    // An instance with its own store would not know: the store is what carries the memory.
    await expect(
      openCheck({ ...flowContext("github"), store: new MemoryStore() }, "state", "github", jar),
    ).resolves.toBeTypeOf("string")
  })

  it("a store that cannot answer refuses the state (fail closed)", async () => {
    const ctx = { ...flowContext("github"), store: deadStore() }
    const { cookie } = await createState(ctx, "github", false)
    const error = await openCheck(ctx, "state", "github", { [cookie.name]: cookie.value }).catch(
      (e) => e,
    )
    expect(error).toBeInstanceOf(InvalidCheck)
    expect(error.details.reason).toBe("store-unavailable")
  })
})
