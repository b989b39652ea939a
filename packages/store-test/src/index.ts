/**
 * The Store contract as a test suite: every store (the in-memory default, Redis, …) runs it in
 * its own tests, so the core can rely on the same behaviour from each: atomic counting under
 * concurrency, single use, expiry, replacement, isolation of keys, bounded values, and maps
 * whose fields expire on their own and stay within a bound however often they are written.
 *
 * ```ts
 * import { runStoreContract } from "@latchkey/store-test"
 * runStoreContract({ name: "memory", store: () => new MemoryStore() })
 * ```
 *
 * Tests use random keys, so the suite can share a server with other data.
 *
 * @module @latchkey/store-test
 */
import { InvalidParameter } from "@latchkey/core/errors"
import type { Store } from "@latchkey/core/store"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { withinTtl } from "./within-ttl.js"

export { watchStalls } from "./stalls.js"
export { type FittingRun, withinTtl } from "./within-ttl.js"

export interface StoreContractOptions {
  name: string
  /** Called once before the tests. */
  store: () => Store | Promise<Store>
  /** Called once after the tests (close connections). */
  teardown?: () => void | Promise<void>
  /** The store's largest accepted value in bytes, when it has one. Default 64 KiB. */
  maxValueBytes?: number
  /**
   * The time to live the expiry cases start with, in ms; they wait twice as long. Default 500.
   * The calls a case makes before the key expires (a second `hit` in the window, a read-back)
   * must all land inside it: a case whose calls take longer runs again with twice the TTL
   * (`withinTtl`). A store reached through a slower path (a worker over a loopback bridge) may
   * start higher and try fewer times.
   */
  shortTtlMs?: number
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
const key = (label: string) => `contract:${label}:${crypto.randomUUID()}`

export function runStoreContract(options: StoreContractOptions): void {
  const short = options.shortTtlMs ?? 500
  const expire = () => sleep(2 * short)
  describe(`store contract: ${options.name}`, () => {
    let current: Store | undefined
    const store = (): Store => {
      if (!current) throw new Error("the store is not ready (did its factory fail?)")
      return current
    }
    beforeAll(async () => {
      current = await options.store()
    })
    afterAll(async () => {
      await options.teardown?.()
    })

    describe("hit", () => {
      it("allows `limit` attempts per window, then refuses with the seconds to wait", async () => {
        const k = key("hit")
        for (let i = 0; i < 3; i++) expect((await store().hit(k, 60_000, 3)).allowed).toBe(true)
        const refused = await store().hit(k, 60_000, 3)
        expect(refused.allowed).toBe(false)
        expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1)
        expect(refused.retryAfterSeconds).toBeLessThanOrEqual(60)
        expect((await store().hit(k, 60_000, 3)).allowed).toBe(false)
      })

      it("allowed answers carry retryAfterSeconds 0", async () => {
        expect(await store().hit(key("hit0"), 60_000, 1)).toEqual({
          allowed: true,
          retryAfterSeconds: 0,
        })
      })

      it("is atomic: of 40 concurrent hits with a limit of 5, exactly 5 are allowed", async () => {
        const k = key("hit-race")
        const results = await Promise.all(
          Array.from({ length: 40 }, async () => store().hit(k, 60_000, 5)),
        )
        expect(results.filter((r) => r.allowed)).toHaveLength(5)
      })

      it("starts a new window once the old one has passed", async () => {
        const { ttlMs, result } = await withinTtl(short, async (ttl) => {
          const k = key("hit-window")
          const first = await store().hit(k, ttl, 1)
          const second = await store().hit(k, ttl, 1)
          return { k, first, second }
        })
        expect(result.first.allowed).toBe(true)
        expect(result.second.allowed).toBe(false)
        await sleep(2 * ttlMs)
        expect((await store().hit(result.k, ttlMs, 1)).allowed).toBe(true)
      })

      it("counts each key on its own", async () => {
        const a = key("hit-a")
        const b = key("hit-b")
        expect((await store().hit(a, 60_000, 1)).allowed).toBe(true)
        expect((await store().hit(b, 60_000, 1)).allowed).toBe(true)
        expect((await store().hit(a, 60_000, 1)).allowed).toBe(false)
      })

      it("delete resets a counter", async () => {
        const k = key("hit-delete")
        await store().hit(k, 60_000, 1)
        await store().delete(k)
        expect((await store().hit(k, 60_000, 1)).allowed).toBe(true)
      })
    })

    describe("consumeOnce", () => {
      it("is true the first time a key is seen, false while it is remembered", async () => {
        const k = key("once")
        expect(await store().consumeOnce(k, 60_000)).toBe(true)
        expect(await store().consumeOnce(k, 60_000)).toBe(false)
        expect(await store().consumeOnce(key("once-other"), 60_000)).toBe(true)
      })

      it("of 30 concurrent calls exactly one wins (usable as a lock)", async () => {
        const k = key("once-race")
        const results = await Promise.all(
          Array.from({ length: 30 }, async () => store().consumeOnce(k, 60_000)),
        )
        expect(results.filter(Boolean)).toHaveLength(1)
      })

      it("forgets the key after its TTL, and on delete (lock release)", async () => {
        const k = key("once-ttl")
        expect(await store().consumeOnce(k, short)).toBe(true)
        await expire()
        expect(await store().consumeOnce(k, 60_000)).toBe(true)
        await store().delete(k)
        expect(await store().consumeOnce(k, 60_000)).toBe(true)
      })
    })

    describe("get / set / delete", () => {
      it("round-trips a value, unicode included; absent keys are null", async () => {
        const k = key("value")
        expect(await store().get(k)).toBeNull()
        const value = `v1 ✓ 🗝️ ${"x".repeat(1000)}`
        await store().set(k, value, 60_000)
        expect(await store().get(k)).toBe(value)
      })

      it("set replaces the value and its TTL", async () => {
        const k = key("replace")
        await store().set(k, "a", short)
        await store().set(k, "b", 60_000)
        await expire()
        expect(await store().get(k)).toBe("b")
      })

      it("a value expires after its TTL", async () => {
        const { ttlMs, result } = await withinTtl(short, async (ttl) => {
          const k = key("expire")
          await store().set(k, "gone soon", ttl)
          return { k, read: await store().get(k) }
        })
        expect(result.read).toBe("gone soon")
        await sleep(2 * ttlMs)
        expect(await store().get(result.k)).toBeNull()
      })

      it("delete removes a value; deleting an absent key is fine", async () => {
        const k = key("delete")
        await store().set(k, "x", 60_000)
        await store().delete(k)
        expect(await store().get(k)).toBeNull()
        await store().delete(k)
      })

      it("the empty string is a value, not an absence", async () => {
        const k = key("empty")
        await store().set(k, "", 60_000)
        expect(await store().get(k)).toBe("")
      })
    })

    describe("maps (optional: mapSet, mapGet, mapGetAll, mapDelete)", () => {
      const maps = () => {
        const s = store()
        return s.mapSet && s.mapGetAll && s.mapDelete ? s : undefined
      }

      it("sets fields independently; fifty concurrent writers all stay", async () => {
        const s = maps()
        if (!s) return
        const k = key("map")
        await Promise.all(
          Array.from({ length: 50 }, (_, i) => s.mapSet!(k, `f${i}`, `v${i}`, 60_000)),
        )
        const all = await s.mapGetAll!(k)
        expect(Object.keys(all)).toHaveLength(50)
        expect(all.f7).toBe("v7")
        await s.mapSet!(k, "f7", "new", 60_000)
        expect((await s.mapGetAll!(k)).f7).toBe("new")
      })

      it("deletes fields; an absent map reads as {}", async () => {
        const s = maps()
        if (!s) return
        const k = key("mapdel")
        expect(await s.mapGetAll!(k)).toEqual({})
        await s.mapSet!(k, "a", "1", 60_000)
        await s.mapSet!(k, "b", "2", 60_000)
        await s.mapDelete!(k, ["a", "absent"])
        expect(await s.mapGetAll!(k)).toEqual({ b: "2" })
        await s.mapDelete!(k, ["b"])
        expect(await s.mapGetAll!(k)).toEqual({})
      })

      it("each field lives its own TTL; a short-lived field never shortens the map", async () => {
        const s = maps()
        if (!s) return
        const long = key("maplong")
        await s.mapSet!(long, "a", "1", 60_000)
        await s.mapSet!(long, "b", "2", short)
        await expire()
        expect(await s.mapGetAll!(long)).toEqual({ a: "1" })
        const brief = key("mapshort")
        await s.mapSet!(brief, "a", "1", short)
        await expire()
        expect(await s.mapGetAll!(brief)).toEqual({})
      })

      it("mapGet reads one live field (optional)", async () => {
        const s = maps()
        if (!s?.mapGet) return
        const mapGet = s.mapGet.bind(s)
        const { ttlMs, result } = await withinTtl(short, async (ttl) => {
          const k = key("mapget")
          const before = await mapGet(k, "a")
          await s.mapSet!(k, "a", "1", 60_000)
          await s.mapSet!(k, "b", "2", ttl)
          return { k, before, a: await mapGet(k, "a"), b: await mapGet(k, "b") }
        })
        expect([result.before, result.a, result.b]).toEqual([null, "1", "2"])
        await sleep(2 * ttlMs)
        expect(await mapGet(result.k, "b")).toBeNull()
        expect(await mapGet(result.k, "a")).toBe("1")
        expect(await mapGet(result.k, "absent")).toBeNull()
      })

      it("a bounded write keeps at most maxFields, dropping the lowest ranks", async () => {
        const s = maps()
        if (!s) return
        const k = key("mapbound")
        for (let i = 0; i < 12; i++) {
          await s.mapSet!(k, `f${i}`, `v${i}`, 60_000, { maxFields: 5, rank: i })
        }
        expect(Object.keys(await s.mapGetAll!(k)).sort()).toEqual(["f10", "f11", "f7", "f8", "f9"])
        // Rewriting a kept field keeps the count; a lower-ranked newcomer is the one dropped.
        await s.mapSet!(k, "f9", "again", 60_000, { maxFields: 5, rank: 9 })
        await s.mapSet!(k, "old", "x", 60_000, { maxFields: 5, rank: -1 })
        const after = await s.mapGetAll!(k)
        expect(Object.keys(after).sort()).toEqual(["f10", "f11", "f7", "f8", "f9"])
        expect(after.f9).toBe("again")
      })

      it("a bounded write drops expired fields before live ones", async () => {
        const s = maps()
        if (!s) return
        const k = key("mapboundexp")
        await s.mapSet!(k, "expiring", "x", short, { maxFields: 3, rank: 100 })
        await s.mapSet!(k, "a", "1", 60_000, { maxFields: 3, rank: 1 })
        await s.mapSet!(k, "b", "2", 60_000, { maxFields: 3, rank: 2 })
        await expire()
        await s.mapSet!(k, "c", "3", 60_000, { maxFields: 3, rank: 3 })
        expect(await s.mapGetAll!(k)).toEqual({ a: "1", b: "2", c: "3" })
      })

      it("fifty concurrent bounded writers leave exactly maxFields, the highest ranks", async () => {
        const s = maps()
        if (!s) return
        const k = key("mapboundrace")
        await Promise.all(
          Array.from({ length: 50 }, (_, i) =>
            s.mapSet!(k, `f${i}`, `v${i}`, 60_000, { maxFields: 10, rank: i }),
          ),
        )
        const kept = Object.keys(await s.mapGetAll!(k))
        expect(kept).toHaveLength(10)
        expect(kept.sort()).toEqual(Array.from({ length: 10 }, (_, i) => `f${40 + i}`).sort())
      })
    })

    describe("hit options", () => {
      it("a stranger-keyed counter counts like any other", async () => {
        const k = key("stranger")
        const hit = () => store().hit(k, 60_000, 2, { strangerKeyed: true })
        expect((await hit()).allowed).toBe(true)
        expect((await hit()).allowed).toBe(true)
        expect((await hit()).allowed).toBe(false)
        await store().delete(k)
        expect((await hit()).allowed).toBe(true)
      })

      it("a counter that guards an account counts like any other, and delete forgets it", async () => {
        const k = key("account")
        const options = { strangerKeyed: true, guardsAccount: true }
        const hit = () => store().hit(k, 60_000, 2, options)
        expect((await hit()).allowed).toBe(true)
        expect((await hit()).allowed).toBe(true)
        expect((await hit()).allowed).toBe(false)
        await store().delete(k)
        expect((await hit()).allowed).toBe(true)
      })
    })

    describe("bad input", () => {
      it("refuses a map bound that keeps no field or has no finite rank, storing nothing", async () => {
        const s = store()
        if (!s.mapSet || !s.mapGetAll) return
        const k = key("badbound")
        const bad = [
          { maxFields: 0, rank: 1 },
          { maxFields: 1.5, rank: 1 },
          { maxFields: 5, rank: Number.NaN },
          { maxFields: 5, rank: Number.POSITIVE_INFINITY },
        ]
        for (const bound of bad) {
          await expect(async () => s.mapSet!(k, "f", "v", 60_000, bound)).rejects.toBeInstanceOf(
            InvalidParameter,
          )
        }
        expect(await s.mapGetAll(k)).toEqual({})
      })

      it("refuses a value over the size bound with InvalidParameter, storing nothing", async () => {
        const k = key("big")
        const max = options.maxValueBytes ?? 64 * 1024
        await expect(async () => store().set(k, "é".repeat(max), 60_000)).rejects.toBeInstanceOf(
          InvalidParameter,
        )
        expect(await store().get(k)).toBeNull()
      })

      it("refuses a TTL or window that is not a positive number (no key without expiry)", async () => {
        for (const ttl of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
          await expect(async () => store().set(key("ttl"), "x", ttl)).rejects.toBeInstanceOf(
            InvalidParameter,
          )
          await expect(async () => store().consumeOnce(key("ttl"), ttl)).rejects.toBeInstanceOf(
            InvalidParameter,
          )
          await expect(async () => store().hit(key("ttl"), ttl, 1)).rejects.toBeInstanceOf(
            InvalidParameter,
          )
        }
      })
    })
  })
}
