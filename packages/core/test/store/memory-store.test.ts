import { runStoreContract } from "@latchkey/store-test"
import { describe, expect, it } from "vitest"
import { MemoryStore } from "../../src/store.js"

runStoreContract({ name: "memory", store: () => new MemoryStore() })

describe("MemoryStore: counters that guard an account (issue 42)", () => {
  const account = { strangerKeyed: true, guardsAccount: true }
  const stranger = { strangerKeyed: true }
  const hits = (store: MemoryStore, key: string, n: number, limit = 10) => {
    let last = store.hit(key, 60_000, limit, account)
    for (let i = 1; i < n; i++) last = store.hit(key, 60_000, limit, account)
    return last
  }

  it("no other traffic pushes them out: a flood of IP and address counters leaves them", () => {
    const store = new MemoryStore({ maxKeys: 10, maxAccountKeys: 10 })
    hits(store, "credentials:account:victim", 10)
    for (let i = 0; i < 5_000; i++) store.hit(`password-mail:ip:${i}`, 60_000, 20, stranger)
    expect(store.hit("credentials:account:victim", 60_000, 10, account).allowed).toBe(false)
  })

  it("bounded by maxAccountKeys; the fewest attempts go first, the oldest among equals", () => {
    const store = new MemoryStore({ maxAccountKeys: 3 })
    hits(store, "a", 3)
    hits(store, "b", 1)
    hits(store, "c", 2)
    hits(store, "d", 1) // full: b (1 attempt) goes
    expect(store.size).toBe(3)
    hits(store, "e", 1) // d and e hold 1 each: d, the older, goes
    expect(store.size).toBe(3)
    // a is still counted (3 + 7 = 10 allowed, the 11th refused); b starts again.
    expect(hits(store, "a", 7).allowed).toBe(true)
    expect(store.hit("a", 60_000, 10, account).allowed).toBe(false)
    expect(hits(store, "b", 10).allowed).toBe(true)
  })

  it("a locked counter ranks as any other over its limit: more guesses buy it no extra room", () => {
    const store = new MemoryStore({ maxAccountKeys: 2 })
    hits(store, "locked-early", 500)
    hits(store, "locked-late", 11)
    hits(store, "new", 1) // both above the limit rank equal: the older goes
    expect(store.hit("locked-late", 60_000, 10, account).allowed).toBe(false)
    expect(store.hit("locked-early", 60_000, 10, account).allowed).toBe(true)
  })

  it("delete and expiry forget one, and eviction still finds the next in line", () => {
    let now = 1_000_000
    const store = new MemoryStore({ maxAccountKeys: 2, sweepIntervalMs: 1, now: () => now })
    hits(store, "x", 5)
    store.hit("short", 1_000, 10, account)
    store.delete("x")
    expect(store.size).toBe(1)
    now += 2_000 // "short" expires
    hits(store, "y", 4)
    hits(store, "z", 2)
    hits(store, "w", 1) // z (2) goes, not y (4)
    expect(store.size).toBe(2)
    expect(hits(store, "y", 7).allowed).toBe(false) // 4 + 7 = 11 attempts
  })
})
