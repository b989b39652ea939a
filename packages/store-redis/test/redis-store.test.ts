/** What RedisStore adds to the contract: prefixes, TTL on every key, the script, bad input. */
import { createHash } from "node:crypto"
import { InvalidParameter, StoreError, StoreFull, StoreTimeout } from "@latchkey/core/errors"
import { TimeoutError } from "@redis/client"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { RedisStore } from "../src/index.js"
import { HIT_SCRIPT, hitScriptSha1 } from "../src/scripts.js"
import {
  connect,
  hasRedisServer,
  type RedisServer,
  startRedisServer,
  uniquePrefix,
} from "./helpers.js"

describe.skipIf(!hasRedisServer)("RedisStore on a server of its own", () => {
  let server: RedisServer
  let client: Awaited<ReturnType<typeof connect>>
  beforeAll(async () => {
    server = await startRedisServer()
    client = await connect(server.url)
  })
  afterAll(async () => {
    await client?.close().catch(() => {})
    await server?.kill()
  })

  it("puts every key under the prefix, and every key has a TTL", async () => {
    const prefix = uniquePrefix("ttl")
    const store = new RedisStore({ client, prefix })
    await store.hit("h", 60_000, 5)
    await store.consumeOnce("c", 60_000)
    await store.set("s", "v", 60_000)
    const keys = await client.keys(`${prefix}*`)
    expect(keys.sort()).toEqual([`${prefix}c`, `${prefix}h`, `${prefix}s`])
    for (const key of keys) {
      const ttl = await client.pTTL(key)
      expect(ttl).toBeGreaterThan(0)
      expect(ttl).toBeLessThanOrEqual(60_000)
    }
  })

  it("two prefixes on one server do not see each other's keys", async () => {
    const a = new RedisStore({ client, prefix: uniquePrefix("a") })
    const b = new RedisStore({ client, prefix: uniquePrefix("b") })
    await a.set("k", "from a", 60_000)
    expect(await b.get("k")).toBeNull()
    expect(await a.consumeOnce("once", 60_000)).toBe(true)
    expect(await b.consumeOnce("once", 60_000)).toBe(true)
  })

  it("loads the hit script again after the server forgot it (SCRIPT FLUSH)", async () => {
    const store = new RedisStore({ client, prefix: uniquePrefix("script") })
    expect((await store.hit("k", 60_000, 2)).allowed).toBe(true)
    await client.scriptFlush()
    expect((await store.hit("k", 60_000, 2)).allowed).toBe(true)
    expect((await store.hit("k", 60_000, 2)).allowed).toBe(false)
  })

  it("names the hit script by its SHA-1 (computed with Web Crypto), so EVALSHA finds it", async () => {
    const sha = await hitScriptSha1()
    expect(sha).toBe(createHash("sha1").update(HIT_SCRIPT).digest("hex"))
    await client.scriptFlush()
    await new RedisStore({ client, prefix: uniquePrefix("sha") }).hit("k", 60_000, 2)
    // The first hit met NOSCRIPT and sent the script whole: Redis now holds it under our name.
    expect(await client.scriptExists(sha)).toEqual([1])
  })

  it("getMany reads several keys in one command, missing ones as null", async () => {
    const prefix = uniquePrefix("many")
    const store = new RedisStore({ client, prefix })
    await store.set("a", "1", 60_000)
    await store.set("c", "3", 60_000)
    await client.set("b", "outside the prefix")
    expect(await store.getMany(["a", "b", "c"])).toEqual(["1", null, "3"])
    expect(await store.getMany([])).toEqual([])
    await client.del("b")
  })

  it("a counter whose TTL was lost gets one back on the next hit (never a key without expiry)", async () => {
    const prefix = uniquePrefix("persist")
    const store = new RedisStore({ client, prefix })
    await store.hit("k", 60_000, 5)
    await client.persist(`${prefix}k`)
    await store.hit("k", 60_000, 5)
    expect(await client.pTTL(`${prefix}k`)).toBeGreaterThan(0)
  })

  it("refuses a value over maxValueBytes before sending anything", async () => {
    const store = new RedisStore({ client, prefix: uniquePrefix("big"), maxValueBytes: 16 })
    await expect(store.set("k", "x".repeat(17), 60_000)).rejects.toBeInstanceOf(InvalidParameter)
    await store.set("k", "x".repeat(16), 60_000)
  })

  it("refuses a server that evicts keys when full (allkeys-* and volatile-*), before sending anything", async () => {
    try {
      await client.configSet("maxmemory", "200mb")
      for (const policy of ["allkeys-lru", "volatile-lru", "volatile-ttl", "allkeys-random"]) {
        await client.configSet("maxmemory-policy", policy)
        const prefix = uniquePrefix("evicting")
        const store = new RedisStore({ client, prefix })
        const refusal = await store.set("k", "v", 60_000).catch((error: unknown) => error)
        expect(refusal).toBeInstanceOf(StoreError)
        expect((refusal as StoreError).details).toMatchObject({ reason: "evicting-policy", policy })
        expect((refusal as StoreError).message).toContain("noeviction")
        // Refused for good (checked once), and nothing was written.
        await expect(store.consumeOnce("c", 60_000)).rejects.toBeInstanceOf(StoreError)
        expect(await client.keys(`${prefix}*`)).toEqual([])
        // The operator's way out, for a server whose memory cannot fill up.
        const trusted = new RedisStore({ client, prefix, checkEvictionPolicy: false })
        await trusted.set("k", "v", 60_000)
      }
      // Without a maxmemory nothing is ever evicted, whatever the policy says.
      await client.configSet("maxmemory", "0")
      await new RedisStore({ client, prefix: uniquePrefix("unbounded") }).set("k", "v", 60_000)
    } finally {
      await client.configSet({ maxmemory: "0", "maxmemory-policy": "noeviction" })
    }
    await new RedisStore({ client, prefix: uniquePrefix("noeviction") }).set("k", "v", 60_000)
  })

  it("a full server (noeviction, maxmemory reached) refuses writes as StoreFull; reads still work", async () => {
    const store = new RedisStore({ client, prefix: uniquePrefix("full") })
    await store.set("before", "v", 60_000)
    try {
      await client.configSet("maxmemory", "1")
      const refusal = await store.consumeOnce("c", 60_000).catch((error: unknown) => error)
      expect(refusal).toBeInstanceOf(StoreFull)
      expect((refusal as StoreFull).type).toBe("StoreFull")
      await expect(store.mapSet("m", "f", "v", 60_000)).rejects.toBeInstanceOf(StoreFull)
      expect(await store.get("before")).toBe("v")
    } finally {
      await client.configSet("maxmemory", "0")
    }
    expect(await store.consumeOnce("c", 60_000)).toBe(true)
  })

  it("refuses something that is not a client", () => {
    expect(() => new RedisStore({ client: {} as never })).toThrow(InvalidParameter)
  })
})

describe("RedisStore: what node-redis rejects a command with", () => {
  it("its own command timeout (a TimeoutError whose name is just 'Error') is a StoreTimeout, and pauses the server", async () => {
    // node-redis is asked for the same timeout as the store's own timer; whichever fires first
    // must mean the same thing. Misread as a refusal, a timeout neither paused the node nor
    // started the cluster's recovery.
    expect(new TimeoutError().name).toBe("Error")
    const client = { isReady: true, sendCommand: () => Promise.reject(new TimeoutError()) }
    const store = new RedisStore({ client, checkEvictionPolicy: false })
    await expect(store.get("k")).rejects.toBeInstanceOf(StoreTimeout)
    const next = await store.get("k").catch((error: unknown) => error)
    expect((next as StoreError).details).toMatchObject({ reason: "paused-after-timeout" })
  })
})
