import { describe, expect, it } from "vitest"
import {
  DEFAULT_PER_ADDRESS,
  DEFAULT_PER_IP,
  defaultRateLimitStore,
  hitAddressLimit,
  hitIpLimit,
} from "../../src/features/email/limits.js"
import { StoreFull } from "../../src/kernel/errors/errors.js"
import { mailboxOf } from "../../src/kernel/mail/address.js"
import { MemoryRateLimitStore } from "../../src/kernel/rate-limit/memory-store.js"

function clock(start = 1_000_000) {
  let now = start
  return { now: () => now, advance: (ms: number) => (now += ms) }
}

describe("MemoryRateLimitStore", () => {
  it("allows `limit` hits per window, then refuses with the seconds left", () => {
    const c = clock()
    const store = new MemoryRateLimitStore({ now: c.now })
    for (let i = 0; i < 3; i++)
      expect(store.hit("k", 60_000, 3)).toEqual({ allowed: true, retryAfterSeconds: 0 })
    expect(store.hit("k", 60_000, 3)).toEqual({ allowed: false, retryAfterSeconds: 60 })
    c.advance(59_500)
    expect(store.hit("k", 60_000, 3)).toEqual({ allowed: false, retryAfterSeconds: 1 })
    c.advance(500)
    expect(store.hit("k", 60_000, 3).allowed).toBe(true)
  })

  it("counts keys separately", () => {
    const store = new MemoryRateLimitStore()
    expect(store.hit("a", 60_000, 1).allowed).toBe(true)
    expect(store.hit("a", 60_000, 1).allowed).toBe(false)
    expect(store.hit("b", 60_000, 1).allowed).toBe(true)
  })

  it("sweeps expired entries", () => {
    const c = clock()
    const store = new MemoryRateLimitStore({ now: c.now, sweepIntervalMs: 1_000 })
    for (let i = 0; i < 100; i++) store.hit(`k${i}`, 5_000, 1)
    expect(store.size).toBe(100)
    c.advance(10_000)
    store.hit("fresh", 5_000, 1)
    expect(store.size).toBe(1)
  })

  it("never holds more than maxKeys stranger-keyed counters, evicting the oldest", () => {
    const store = new MemoryRateLimitStore({ maxKeys: 10 })
    const stranger = { strangerKeyed: true }
    for (let i = 0; i < 1000; i++) store.hit(`k${i}`, 60_000, 1, stranger)
    expect(store.size).toBe(10)
    // The newest keys are still counted.
    expect(store.hit("k999", 60_000, 1, stranger).allowed).toBe(false)
    expect(store.hit("k0", 60_000, 1, stranger).allowed).toBe(true)
  })

  it("evicts no security state for them: markers, values and per-user counters stay", () => {
    const store = new MemoryRateLimitStore({ maxKeys: 10 })
    expect(store.consumeOnce("used-code", 60_000)).toBe(true)
    store.set("session-version:u1", "7", 60_000)
    store.hit("two-factor:u1", 60_000, 1)
    for (let i = 0; i < 1000; i++) store.hit(`k${i}`, 60_000, 1, { strangerKeyed: true })
    expect(store.consumeOnce("used-code", 60_000)).toBe(false)
    expect(store.get("session-version:u1")).toBe("7")
    expect(store.hit("two-factor:u1", 60_000, 1).allowed).toBe(false)
  })

  it("refuses new security state with StoreFull when its part is full; an expired key makes room", () => {
    const c = clock()
    const store = new MemoryRateLimitStore({ maxProtectedKeys: 3, now: c.now })
    store.consumeOnce("a", 5_000)
    store.consumeOnce("b", 60_000)
    store.set("c", "1", 60_000)
    expect(() => store.consumeOnce("d", 60_000)).toThrowError(StoreFull)
    expect(() => store.hit("per-user", 60_000, 1)).toThrowError(StoreFull)
    // Existing keys still answer and update in place.
    expect(store.consumeOnce("b", 60_000)).toBe(false)
    store.set("c", "2", 60_000)
    expect(store.get("c")).toBe("2")
    // Stranger-keyed counters have their own room.
    expect(store.hit("ip:192.0.2.1", 60_000, 1, { strangerKeyed: true }).allowed).toBe(true)
    c.advance(10_000)
    expect(store.consumeOnce("d", 60_000)).toBe(true)
    expect(store.consumeOnce("b", 60_000)).toBe(false)
  })
})

describe("email sending limits", () => {
  it("documents the defaults: 5 per address and 20 per IP per 15 minutes", () => {
    expect(DEFAULT_PER_ADDRESS).toEqual({ limit: 5, windowMs: 15 * 60 * 1000 })
    expect(DEFAULT_PER_IP).toEqual({ limit: 20, windowMs: 15 * 60 * 1000 })
  })

  it("applies the defaults and reports the scope", async () => {
    const store = new MemoryRateLimitStore()
    for (let i = 0; i < 5; i++)
      expect((await hitAddressLimit({ store }, "a@b.c")).allowed).toBe(true)
    expect(await hitAddressLimit({ store }, "a@b.c")).toMatchObject({
      allowed: false,
      scope: "address",
      retryAfterSeconds: 900,
    })
    for (let i = 0; i < 20; i++)
      expect((await hitIpLimit({ store }, "192.0.2.1")).allowed).toBe(true)
    expect(await hitIpLimit({ store }, "192.0.2.1")).toMatchObject({ allowed: false, scope: "ip" })
  })

  it.each([
    ["carol+news@example.com", "carol@example.com"],
    ["Carol+A+B@Example.COM", "carol@example.com"],
    ["ｃａｒｏｌ@example.com", "carol@example.com"],
    ["+only@example.com", "+only@example.com"],
    ["plain@example.com", "plain@example.com"],
  ])("keys the address limit on the mailbox: %s → %s", (address, mailbox) => {
    expect(mailboxOf(address)).toBe(mailbox)
  })

  it("keeps IP and address counters apart even for equal strings", async () => {
    const store = new MemoryRateLimitStore()
    const rule = { limit: 1, windowMs: 60_000 }
    expect((await hitIpLimit({ store, perIp: rule }, "192.0.2.1")).allowed).toBe(true)
    expect((await hitAddressLimit({ store, perAddress: rule }, "192.0.2.1")).allowed).toBe(true)
  })

  it("uses one process-wide store by default", async () => {
    expect(defaultRateLimitStore()).toBe(defaultRateLimitStore())
    const [a, b] = crypto.getRandomValues(new Uint8Array(2))
    const ip = `198.18.${a}.${b}`
    const rule = { limit: 1, windowMs: 60_000 }
    await hitIpLimit({ perIp: rule }, ip)
    // A second provider object (configs rebuilt per request) sees the same count.
    expect((await hitIpLimit({ perIp: rule }, ip)).allowed).toBe(false)
  })

  it("accepts an asynchronous store", async () => {
    const calls: unknown[] = []
    const store = {
      hit: async (key: string, windowMs: number, limit: number) => {
        calls.push([key, windowMs, limit])
        return { allowed: false, retryAfterSeconds: 7 }
      },
    }
    expect(await hitIpLimit({ store }, "192.0.2.9")).toEqual({
      allowed: false,
      scope: "ip",
      retryAfterSeconds: 7,
    })
    expect(calls).toEqual([["email-send:ip:192.0.2.9", 900_000, 20]])
  })
})
