/**
 * Bounded maps with per-field expiry on Redis 7.0 (no HEXPIRE): each field carries its own
 * expiry and rank (`scripts.ts`), reads drop expired fields, a bounded write prunes in the same
 * script, and fields the previous version wrote (bare JSON) still read and are pruned first.
 * Against the shared server at REDIS_URL (skipped when unset).
 */
import { setTimeout as sleep } from "node:timers/promises"
import { withinTtl } from "@latchkey/store-test"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { RedisStore } from "../src/index.js"
import { decodeField, encodeField, FIELD_MARK, liveFieldValue } from "../src/scripts.js"
import { connect, REDIS_URL, uniquePrefix } from "./helpers.js"

describe("map field codec", () => {
  it("round-trips value, expiry and rank; a value may hold colons and the mark", () => {
    const raw = encodeField(`a:b:${FIELD_MARK}:c`, 1_700_000_000_123, -2.5)
    expect(raw.startsWith(FIELD_MARK)).toBe(true)
    expect(decodeField(raw)).toEqual({
      value: `a:b:${FIELD_MARK}:c`,
      expiresAtMs: 1_700_000_000_123,
      rank: -2.5,
      legacy: false,
    })
    expect(liveFieldValue(raw, 1_700_000_000_122)).toBe(`a:b:${FIELD_MARK}:c`)
    expect(liveFieldValue(raw, 1_700_000_000_123)).toBeNull()
  })

  it("reads anything else whole, as a legacy field with no expiry of its own", () => {
    for (const raw of ['{"sid":"x","expires":1}', "12:3:x", `${FIELD_MARK}:1:x`, FIELD_MARK]) {
      const field = decodeField(raw)
      expect(field).toMatchObject({ value: raw, expiresAtMs: null, legacy: true })
      expect(liveFieldValue(raw, Number.MAX_SAFE_INTEGER)).toBe(raw)
    }
  })
})

const url = REDIS_URL
describe.skipIf(!url)("bounded maps on Redis (REDIS_URL)", () => {
  let client: Awaited<ReturnType<typeof connect>>
  beforeAll(async () => {
    client = await connect(url!)
  })
  afterAll(async () => {
    await client?.close()
  })
  // These cases check what the maps hold, not how fast: on the shared server, beside the
  // 10,000-sign-in session-list file and under twice the cores in load, a mapGetAll once took
  // over the default 500 ms. The outage tests keep the short limits.
  const fresh = (options: { commandTimeoutMs?: number } = {}) => {
    const prefix = uniquePrefix("bounded")
    const store = new RedisStore({ client, prefix, commandTimeoutMs: 5_000, ...options })
    return { prefix, store }
  }

  it("an expired field vanishes from mapGet and mapGetAll; the map lives as long as its longest field", async () => {
    // The reads before the sleep must land inside the short TTL: a run whose calls outlast it
    // (a loaded machine) proves nothing and runs again, on a fresh map, with twice the TTL.
    const { ttlMs, result } = await withinTtl(500, async (short) => {
      const { prefix, store } = fresh()
      const wroteFrom = performance.now()
      await store.mapSet("m", "short", "s", short)
      await store.mapSet("m", "long", "l", 60_000)
      await store.mapSet("m", "short2", "s2", short)
      const read = await store.mapGet("m", "short")
      return { prefix, store, wroteFrom, read, all: await store.mapGetAll("m") }
    })
    const { prefix, store } = result
    expect(result.read).toBe("s")
    expect(result.all).toEqual({ short: "s", long: "l", short2: "s2" })
    await sleep(2 * ttlMs)
    expect(await store.mapGet("m", "short")).toBeNull()
    expect(await store.mapGet("m", "long")).toBe("l")
    expect(await store.mapGet("m", "absent")).toBeNull()
    expect(await store.mapGetAll("m")).toEqual({ long: "l" })
    const ttl = await client.pTTL(`${prefix}m`)
    // The long field's minute, less the time since it was written (a short TTL would be gone).
    expect(ttl).toBeGreaterThan(60_000 - (performance.now() - result.wroteFrom) - 5)
    expect(ttl).toBeLessThanOrEqual(60_000)
  })

  it("a bounded write removes expired fields, then the lowest ranks, down to maxFields", async () => {
    const { prefix, store } = fresh()
    const bound = (rank: number) => ({ maxFields: 3, rank })
    await store.mapSet("m", "expiring", "x", 100, bound(100))
    await store.mapSet("m", "r1", "1", 60_000, bound(1))
    await store.mapSet("m", "r5", "5", 60_000, bound(5))
    expect(await client.hLen(`${prefix}m`)).toBe(3)
    await sleep(200)
    // Over the bound: the expired field goes first (though ranked highest), nothing else.
    await store.mapSet("m", "r3", "3", 60_000, bound(3))
    expect(await store.mapGetAll("m")).toEqual({ r1: "1", r5: "5", r3: "3" })
    expect(await client.hLen(`${prefix}m`)).toBe(3)
    // Then the lowest rank, whichever field it is — the one just written included.
    await store.mapSet("m", "r4", "4", 60_000, bound(4))
    expect(Object.keys(await store.mapGetAll("m")).sort()).toEqual(["r3", "r4", "r5"])
    await store.mapSet("m", "r0", "0", 60_000, bound(0))
    expect(Object.keys(await store.mapGetAll("m")).sort()).toEqual(["r3", "r4", "r5"])
  })

  it("the bound holds under 300 concurrent writes: HLEN never above it, the top ranks stay", async () => {
    // The last of 300 queued scripts can wait past the default 500 ms on a busy CI machine; this
    // test is about the bound, so latency gets room (outage.test.ts covers the timeout).
    const { prefix, store } = fresh({ commandTimeoutMs: 10_000 })
    const maxFields = 25
    const ranks = Array.from({ length: 300 }, (_, i) => i).sort(() => Math.random() - 0.5)
    let largest = 0
    const watcher = (async () => {
      for (let i = 0; i < 50; i++) {
        largest = Math.max(largest, await client.hLen(`${prefix}m`))
        await sleep(1)
      }
    })()
    const writes = Promise.all(
      ranks.map((rank) => store.mapSet("m", `f${rank}`, String(rank), 60_000, { maxFields, rank })),
    )
    // Both settle before anything throws, so the watcher never outlives the client.
    for (const result of await Promise.allSettled([writes, watcher]))
      if (result.status === "rejected") throw result.reason
    expect(largest).toBeLessThanOrEqual(maxFields)
    expect(await client.hLen(`${prefix}m`)).toBe(maxFields)
    const kept = Object.values(await store.mapGetAll("m"))
      .map(Number)
      .sort((a, b) => a - b)
    expect(kept).toEqual(Array.from({ length: maxFields }, (_, i) => 300 - maxFields + i))
  })

  it("fields the previous version wrote (bare JSON) still read, and a bounded write prunes them first", async () => {
    const { prefix, store } = fresh()
    const legacy = JSON.stringify({ sid: "old", expires: 1 })
    await client.hSet(`${prefix}m`, "old", legacy)
    await client.pExpire(`${prefix}m`, 60_000)
    expect(await store.mapGet("m", "old")).toBe(legacy)
    expect(await store.mapGetAll("m")).toEqual({ old: legacy })
    // An unbounded write keeps it; the first write over a bound drops it before any rank.
    await store.mapSet("m", "new1", "1", 60_000)
    expect(await store.mapGetAll("m")).toEqual({ old: legacy, new1: "1" })
    await store.mapSet("m", "new2", "2", 60_000, { maxFields: 2, rank: -1_000 })
    expect(await store.mapGetAll("m")).toEqual({ new1: "1", new2: "2" })
  })

  it("refuses a bound that is not one (InvalidParameter), writing nothing", async () => {
    const { prefix, store } = fresh()
    for (const bound of [
      { maxFields: 0, rank: 1 },
      { maxFields: 1.5, rank: 1 },
      { maxFields: 3, rank: Number.NaN },
    ]) {
      await expect(store.mapSet("m", "f", "v", 60_000, bound)).rejects.toMatchObject({
        type: "InvalidParameter",
      })
    }
    expect(await client.exists(`${prefix}m`)).toBe(0)
  })
})
