/**
 * Issue 42 item 4, written as the attacks: a client with an IPv6 /64 guessing from a new
 * address each time, the same client counted once as `::ffff:a.b.c.d` and once as `a.b.c.d`,
 * and a client sending an 8 KB `X-Forwarded-For` to write its own text into the store's keys.
 */
import { describe, expect, it } from "vitest"
import { Auth } from "../../src/index.js"
import { resolveConfig } from "../../src/kernel/config/resolve.js"
import { setConnectionIp } from "../../src/kernel/rate-limit/client-ip.js"
import type { CredentialsRateLimitOptions } from "../../src/kernel/types/rate-limit-options.js"
import type { HitOptions } from "../../src/kernel/types/store.js"
import Credentials from "../../src/providers/credentials.js"
import { MemoryStore } from "../../src/store.js"
import type { AuthConfig } from "../../src/types.js"
import { ORIGIN, recordingLogger, SECRET } from "../auth/helpers.js"
import { postForm } from "../store/post-form.js"

/** A memory store that remembers every key it was asked to count. */
class KeyRecordingStore extends MemoryStore {
  readonly keys: string[] = []
  override hit(key: string, windowMs: number, limit: number, options?: HitOptions) {
    this.keys.push(key)
    return super.hit(key, windowMs, limit, options)
  }
}

/** Every guess names another account: only the per-IP limit (default 50) can stop them. */
function guessingApp(rateLimit: CredentialsRateLimitOptions = {}) {
  let authorized = 0
  const store = new KeyRecordingStore()
  const log = recordingLogger()
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    store,
    logger: log.logger,
    providers: [
      Credentials({
        credentials: { username: {}, password: { type: "password" } },
        rateLimit: { perAccount: false, ...rateLimit },
        authorize: () => {
          authorized++
          return null
        },
      }),
    ],
  }
  const guess = (i: number, ip: string) =>
    postForm(config, "/auth/callback/credentials", { username: `user-${i}`, password: "x" }, ip)
  return { config, store, log, guess, authorized: () => authorized }
}

const errorOf = (res: Response) =>
  new URL(res.headers.get("location") ?? "http://x/").searchParams.get("error")

describe("per-IP limits and IPv6", () => {
  it("attack: 60 guesses from one /64, a new address each, are refused after 50", async () => {
    const app = guessingApp()
    const outcomes: (string | null)[] = []
    for (let i = 0; i < 60; i++) {
      outcomes.push(errorOf(await app.guess(i, `2001:db8:aa:bb:${(i + 1).toString(16)}::1`)))
    }
    expect(app.authorized()).toBe(50)
    expect(outcomes.slice(50)).toEqual(Array(10).fill("RateLimited"))
    // The neighbouring /64 is another subscriber: not affected.
    expect(errorOf(await app.guess(61, "2001:db8:aa:bc::1"))).toBe("CredentialsSignin")
    expect(new Set(app.store.keys.filter((k) => k.startsWith("credentials:ip:")))).toEqual(
      new Set(["credentials:ip:2001:db8:aa:bb::/64", "credentials:ip:2001:db8:aa:bc::/64"]),
    )
  })

  it("ipv6Prefix: 48 counts a whole /48 together", async () => {
    const app = guessingApp({ ipv6Prefix: 48, perIp: { limit: 3, windowMs: 60_000 } })
    const subnets = ["2001:db8:aa:1::1", "2001:db8:aa:2::1", "2001:db8:aa:3::1", "2001:db8:aa:4::1"]
    const outcomes = []
    for (const [i, ip] of subnets.entries()) outcomes.push(errorOf(await app.guess(i, ip)))
    expect(outcomes).toEqual([
      "CredentialsSignin",
      "CredentialsSignin",
      "CredentialsSignin",
      "RateLimited",
    ])
  })

  it("attack: the same client as ::ffff:192.0.2.9 and as 192.0.2.9 is one counter, not two", async () => {
    const app = guessingApp({ perIp: { limit: 4, windowMs: 60_000 } })
    const outcomes = []
    for (let i = 0; i < 6; i++) {
      outcomes.push(errorOf(await app.guess(i, i % 2 ? "::ffff:192.0.2.9" : "192.0.2.9")))
    }
    expect(app.authorized()).toBe(4)
    expect(outcomes.slice(4)).toEqual(["RateLimited", "RateLimited"])
  })

  it("ipv6Prefix outside 32–64 is a start-up problem naming the option", () => {
    for (const ipv6Prefix of [0, 16, 65, 128, 56.5]) {
      const { configError } = resolveConfig({
        secret: SECRET,
        providers: [Credentials({ rateLimit: { ipv6Prefix }, authorize: () => null })],
        logger: recordingLogger().logger,
      })
      expect(configError?.problems.map((p) => p.message)).toEqual([
        expect.stringContaining(
          '"providers["credentials"].rateLimit.ipv6Prefix" must be a whole number from 32 to 64',
        ),
      ])
    }
  })
})

describe("a client header never becomes a key as it is", () => {
  const hugeForwardedFor = (tail: string) =>
    `${Array.from({ length: 600 }, (_, i) => `10.${i >> 8}.${i & 255}.1`).join(", ")}${tail}`

  async function signInWith(app: ReturnType<typeof guessingApp>, headers: Record<string, string>) {
    const csrf = await Auth(new Request(`${ORIGIN}/auth/csrf`), app.config)
    const { csrfToken } = (await csrf.json()) as { csrfToken: string }
    const cookie = csrf.headers
      .getSetCookie()
      .map((c) => c.split(";")[0])
      .join("; ")
    const request = new Request(`${ORIGIN}/auth/callback/credentials`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        cookie,
        origin: ORIGIN,
        ...headers,
      },
      body: new URLSearchParams({ username: "u", password: "x", csrfToken }).toString(),
    })
    setConnectionIp(request, "192.0.2.50")
    return Auth(request, app.config)
  }

  it("attack: an 8 KB X-Forwarded-For of junk counts the connection's address instead", async () => {
    const app = guessingApp()
    const junk = `${"x".repeat(8 * 1024)}`
    for (const value of [junk, hugeForwardedFor(`, ${junk}`), `${"a:".repeat(4096)}1`]) {
      expect(value.length).toBeGreaterThanOrEqual(8 * 1024)
      expect(errorOf(await signInWith(app, { "x-forwarded-for": value }))).toBe("CredentialsSignin")
    }
    expect(app.store.keys).toEqual(Array(3).fill("credentials:ip:192.0.2.50"))
  })

  it("an 8 KB X-Forwarded-For whose last entry (the proxy's) is an address counts that address", async () => {
    const app = guessingApp()
    const res = await signInWith(app, { "x-forwarded-for": hugeForwardedFor(", 198.51.100.7") })
    expect(errorOf(res)).toBe("CredentialsSignin")
    expect(app.store.keys).toEqual(["credentials:ip:198.51.100.7"])
  })

  it("X-Real-IP is parsed the same; a port and brackets are dropped", async () => {
    const app = guessingApp()
    await signInWith(app, { "x-real-ip": `${"9".repeat(8000)}` })
    await signInWith(app, { "x-real-ip": "[2001:DB8:0:0:1::9]:443" })
    await signInWith(app, { "x-forwarded-for": "198.51.100.7:5123" })
    expect(app.store.keys).toEqual([
      "credentials:ip:192.0.2.50",
      "credentials:ip:2001:db8::/64",
      "credentials:ip:198.51.100.7",
    ])
  })

  it("a getClientIp answer that is not an address is not a key: not counted, logged once with a code", async () => {
    const app = guessingApp({ getClientIp: (r) => r.headers.get("x-client") ?? undefined })
    for (let i = 0; i < 3; i++) await signInWith(app, { "x-client": `<script>${"z".repeat(900)}` })
    await signInWith(app, { "x-client": "203.0.113.4" })
    expect(app.store.keys).toEqual(["credentials:ip:203.0.113.4"])
    expect(app.log.warnings().filter((code) => code === "client-ip-unreadable")).toHaveLength(1)
  })
})
