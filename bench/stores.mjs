// Each store side by side in one run: one store operation (`hit`, the rate-limit counter every
// sign-in attempt pays: a Lua script on Redis) and a strict JWT session read (getSession with
// `session.revocation: "strict"`: one `getMany` per read, one MGET on Redis), for
// - MemoryStore (this process),
// - RedisStore over TCP (node-redis, loopback),
// - RedisStore on Redis Cluster (createCluster; three masters, three replicas started here on
//   loopback; security writes wait for a replica's confirmation),
// - UpstashStore over HTTP (@upstash/redis) through the test bridge of
//   packages/store-upstash (a separate process, speaking Upstash's REST API in front of the
//   same Redis): the cost of the REST protocol plus one extra loopback hop, not Upstash's
//   service latency, which is the network's.
// Each remote store also gets its floor: one bare GET by the same transport.
// Contenders run in alternating rounds; the figure is the median of the rounds' p50.
import { spawn } from "node:child_process"
import { createInterface } from "node:readline"
import { fileURLToPath } from "node:url"
import { MemoryStore } from "@latchkey/core/store"
import { RedisStore } from "@latchkey/store-redis"
import { UpstashStore } from "@latchkey/store-upstash"
import { createClient, createCluster } from "@redis/client"
import { printTable, timeCalls } from "./harness.mjs"
import { canStartCluster, startCluster } from "./redis-cluster.mjs"
import { reader } from "./revocation.mjs"

const ROUND_MS = Number(process.env.BENCH_STORES_ROUND_MS ?? 500)
const ROUNDS = Number(process.env.BENCH_STORES_ROUNDS ?? 7)
const BRIDGE = fileURLToPath(
  new URL("../packages/store-upstash/test/bridge-cli.mjs", import.meta.url),
)

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1]
const us = (ms) => `${(ms * 1000).toFixed(Math.abs(ms) < 0.01 ? 1 : 0)} µs`

/** The test bridge as its own process; resolves with its URL and token once it listens. */
async function startBridge(redisUrl) {
  const child = spawn(process.execPath, [BRIDGE, "--redis-url", redisUrl], {
    stdio: ["ignore", "pipe", "inherit"],
  })
  const [line] = await Promise.race([
    createInterface({ input: child.stdout })
      [Symbol.asyncIterator]()
      .next()
      .then((r) => [r.value]),
    new Promise((_, reject) =>
      child.once("exit", (code) => reject(new Error(`bridge exited (${code})`))),
    ),
  ])
  const { url, token } = JSON.parse(line)
  const stop = () =>
    new Promise((resolve) => {
      if (child.exitCode !== null) return resolve()
      child.once("exit", resolve)
      child.kill("SIGTERM")
    })
  return { url, token, stop }
}

export async function benchStores() {
  /** name → { hit, read, floor? } */
  const stores = {}
  const closers = []
  const hitOf = (store) => {
    const key = `bench-hit:${crypto.randomUUID()}`
    // A limit no run reaches: every call counts and is allowed, as a sign-in attempt would be.
    return () => store.hit(key, 60_000, 1e9)
  }
  const strictRead = (store) => reader({ store, session: { revocation: "strict" } })

  const memory = new MemoryStore()
  stores.MemoryStore = { hit: hitOf(memory), read: await strictRead(memory) }

  const redisUrl = process.env.REDIS_URL
  if (redisUrl) {
    const client = createClient({ url: redisUrl })
    client.on("error", () => {})
    await client.connect()
    closers.push(() => client.close())
    const prefix = `latchkey-bench:${crypto.randomUUID()}:`
    const redis = new RedisStore({ client, prefix })
    stores["RedisStore (TCP)"] = {
      hit: hitOf(redis),
      read: await strictRead(redis),
      floor: ["bare GET, node-redis", () => client.sendCommand(["GET", `${prefix}x`])],
    }

    if (canStartCluster) {
      const cluster = await startCluster()
      closers.push(cluster.stop)
      const clusterClient = createCluster({
        rootNodes: cluster.rootNodes,
        defaults: { disableOfflineQueue: true },
      })
      clusterClient.on("error", () => {})
      await clusterClient.connect()
      closers.unshift(() => clusterClient.close())
      const clustered = new RedisStore({ client: clusterClient, prefix })
      stores["RedisStore (Redis Cluster)"] = {
        hit: hitOf(clustered),
        read: await strictRead(clustered),
        floor: [
          "bare GET, node-redis cluster",
          () => clusterClient.sendCommand(`${prefix}x`, true, ["GET", `${prefix}x`]),
        ],
      }
    }

    const bridge = await startBridge(redisUrl)
    closers.push(bridge.stop)
    const upstash = new UpstashStore({ url: bridge.url, token: bridge.token, prefix })
    const body = JSON.stringify(["GET", `${prefix}x`])
    const headers = { authorization: `Bearer ${bridge.token}` }
    stores["UpstashStore (HTTP, test bridge)"] = {
      hit: hitOf(upstash),
      read: await strictRead(upstash),
      floor: [
        "bare GET, fetch through the bridge",
        async () => (await fetch(bridge.url, { method: "POST", headers, body })).json(),
      ],
    }
  }

  const contenders = {
    "revocation off": await reader({ store: memory, session: { revocation: "off" } }),
  }
  for (const [name, s] of Object.entries(stores)) {
    contenders[`${name}: hit`] = s.hit
    contenders[`${name}: strict read`] = s.read
    if (s.floor) contenders[`${name}: ${s.floor[0]}`] = s.floor[1]
  }
  const names = Object.keys(contenders)
  for (const name of names) await timeCalls(contenders[name], ROUND_MS) // warm-up
  const p50s = Object.fromEntries(names.map((n) => [n, []]))
  for (let r = 0; r < ROUNDS; r++) {
    for (const name of r % 2 ? [...names].reverse() : names) {
      p50s[name].push((await timeCalls(contenders[name], ROUND_MS)).p50)
    }
  }
  const p50 = (name) => (p50s[name] ? median(p50s[name]) : undefined)
  const off = p50("revocation off")
  printTable(
    "Stores side by side: one operation (hit) and a strict JWT session read, p50",
    ["store", "hit", "strict session read", "read added vs revocation off", "one bare GET (floor)"],
    Object.entries(stores).map(([name, s]) => [
      name,
      us(p50(`${name}: hit`)),
      us(p50(`${name}: strict read`)),
      `+${us(p50(`${name}: strict read`) - off)}`,
      s.floor ? us(p50(`${name}: ${s.floor[0]}`)) : "–",
    ]),
  )
  console.log(`\nrevocation off: ${us(off)} per read.`)
  if (!redisUrl) console.log("\n(REDIS_URL unset: the Redis, Cluster and HTTP rows are missing.)")
  else if (!canStartCluster)
    console.log("\n(no redis-server/redis-cli: the Cluster row is missing.)")
  for (const close of closers) await close()
}
