/**
 * UpstashStore beyond the shared contract: its options, values read back exactly as written
 * (whichever way the client was made), one request per operation, the same keys and map fields
 * as RedisStore (both stores can share a database), scripts by SHA, and failures that are typed,
 * name the operation and never carry a key or a value.
 *
 * Through the test bridge to REDIS_URL (skipped when unset); the NOSCRIPT and full-database
 * cases start their own `redis-server` on a free port.
 */
import { InvalidParameter, StoreError, StoreFull } from "@latchkey/core/errors"
import { RedisStore } from "@latchkey/store-redis"
import { errors, Redis } from "@upstash/redis"
import { Redis as CloudflareRedis } from "@upstash/redis/cloudflare"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  hasRedisServer,
  type RedisServer,
  startRedisServer,
} from "../../store-redis/test/helpers.js"
import { UpstashStore } from "../src/index.js"
import {
  type Bridge,
  connect,
  REDIS_URL,
  startBridge,
  uniquePrefix,
  upstashClient,
} from "./helpers.js"

const TOKEN = "a-rest-token-that-must-never-be-shown"

const failureOf = (run: () => unknown) =>
  Promise.resolve()
    .then(run)
    .then(
      () => undefined,
      (e: unknown) => e as StoreError,
    )

describe("UpstashStore options", () => {
  const url = "https://example-db.upstash.io"
  const refusal = (make: () => unknown) => {
    try {
      make()
    } catch (error) {
      return error as InvalidParameter
    }
    throw new Error("no refusal")
  }

  it("takes { url, token } or { client }, and refuses neither, both, or a malformed one", () => {
    expect(refusal(() => new UpstashStore({})).parameter).toBe("url")
    expect(
      refusal(() => new UpstashStore({ url: "example-db.upstash.io", token: TOKEN })).parameter,
    ).toBe("url")
    expect(refusal(() => new UpstashStore({ url, token: " " })).parameter).toBe("token")
    const client = new Redis({ url, token: TOKEN, automaticDeserialization: false })
    expect(refusal(() => new UpstashStore({ client, url, token: TOKEN })).parameter).toBe("client")
    expect(refusal(() => new UpstashStore({ client: {} as Redis })).parameter).toBe("client")
    expect(new UpstashStore({ client })).toBeInstanceOf(UpstashStore)
    expect(new UpstashStore({ url, token: TOKEN })).toBeInstanceOf(UpstashStore)
    for (const bad of [0, -1, Number.NaN]) {
      expect(
        refusal(() => new UpstashStore({ url, token: TOKEN, commandTimeoutMs: bad })),
      ).toBeInstanceOf(InvalidParameter)
    }
  })

  it("refuses a client that parses replies as JSON (its default): values would not come back as written", () => {
    const parsing = new Redis({ url, token: TOKEN })
    const error = refusal(() => new UpstashStore({ client: parsing }))
    expect(error).toBeInstanceOf(InvalidParameter)
    expect(error.message).toMatch(/automaticDeserialization: false/)
  })

  it("takes a client from @upstash/redis/cloudflare on the same terms", () => {
    const made = (options: { automaticDeserialization?: boolean }) =>
      new CloudflareRedis({ url, token: TOKEN, ...options })
    expect(new UpstashStore({ client: made({ automaticDeserialization: false }) })).toBeInstanceOf(
      UpstashStore,
    )
    expect(refusal(() => new UpstashStore({ client: made({}) })).parameter).toBe("client")
  })

  it("refuses plain http off loopback (the token would travel in clear), by url or by client", () => {
    const remote = [
      "http://example-db.upstash.io",
      "http://198.51.100.7:8079",
      "http://[2001:db8::1]/",
      "http://127.0.0.1.nip.io",
      "http://localhost.example.com",
    ]
    for (const plain of remote) {
      const byUrl = refusal(() => new UpstashStore({ url: plain, token: TOKEN }))
      expect(byUrl).toBeInstanceOf(InvalidParameter)
      expect(byUrl.parameter).toBe("url")
      expect(byUrl.message).toMatch(/https:\/\//)
      expect(byUrl.message).toMatch(/in clear/)
      const client = new Redis({ url: plain, token: TOKEN, automaticDeserialization: false })
      expect(refusal(() => new UpstashStore({ client })).parameter).toBe("client")
      expect(`${byUrl.message} ${JSON.stringify(byUrl)}`).not.toContain(TOKEN)
    }
    // Loopback (a local bridge or emulator) may be plain http; https is taken anywhere.
    for (const fine of [
      "http://127.0.0.1:8079",
      "http://127.8.9.10",
      "http://localhost:8079",
      "http://[::1]:8079",
      "https://example-db.upstash.io",
    ]) {
      expect(new UpstashStore({ url: fine, token: TOKEN })).toBeInstanceOf(UpstashStore)
      const client = new Redis({ url: fine, token: TOKEN, automaticDeserialization: false })
      expect(new UpstashStore({ client })).toBeInstanceOf(UpstashStore)
    }
  })

  it("never shows the token in a refusal", () => {
    for (const make of [
      () => new UpstashStore({ url: "not a url", token: TOKEN }),
      () => new UpstashStore({ client: new Redis({ url, token: TOKEN }) }),
    ]) {
      const error = refusal(make)
      expect(`${error.message} ${JSON.stringify(error)}`).not.toContain(TOKEN)
    }
  })
})

describe.skipIf(!REDIS_URL)("UpstashStore through the test bridge", () => {
  let bridge: Bridge
  let direct: Awaited<ReturnType<typeof connect>>
  let store: UpstashStore
  let prefix: string

  beforeAll(async () => {
    bridge = await startBridge({ redisUrl: REDIS_URL! })
    direct = await connect(REDIS_URL!)
    prefix = uniquePrefix("upstash")
    store = new UpstashStore({ url: bridge.url, token: bridge.token, prefix })
  })
  afterAll(async () => {
    await bridge?.close()
    await direct?.close()
  })

  // Strings a JSON-parsing client would change: "null" to null, '"x"' to x, '{"a": 1}' to an
  // object, "1.50" to 1.5 — and control characters, which the map-field codec itself uses.
  const tricky = ["null", '"quoted"', '{"a": 1}', "[1, 2]", "1.50", "true", "0", " ", "é🔐\u0001:x"]

  it("reads every value back exactly as written, through the store's own client and through an app's", async () => {
    const appClient = upstashClient(bridge)
    const stores = [store, new UpstashStore({ client: appClient, prefix })]
    for (const [i, s] of stores.entries()) {
      for (const [j, value] of tricky.entries()) {
        await s.set(`tricky:${i}:${j}`, value, 60_000)
        expect(await s.get(`tricky:${i}:${j}`)).toBe(value)
        await s.mapSet(`tricky-map:${i}`, `f${j}`, value, 60_000)
        expect(await s.mapGet(`tricky-map:${i}`, `f${j}`)).toBe(value)
      }
      const keys = tricky.map((_, j) => `tricky:${i}:${j}`)
      expect(await s.getMany([...keys, "absent"])).toEqual([...tricky, null])
      expect(await s.mapGetAll(`tricky-map:${i}`)).toEqual(
        Object.fromEntries(tricky.map((value, j) => [`f${j}`, value])),
      )
    }
  })

  it("each operation is one HTTP request and one command; getMany is one MGET", async () => {
    await store.set("one:a", "A", 60_000)
    await store.hit("one:counter", 60_000, 5) // the script is known to Redis from here on
    const cost = async (run: () => Promise<unknown>) => {
      const before = { ...bridge.stats }
      await run()
      return {
        requests: bridge.stats.requests - before.requests,
        commands: bridge.stats.commands - before.commands,
      }
    }
    const one = { requests: 1, commands: 1 }
    expect(await cost(() => store.getMany(["one:a", "one:b"]))).toEqual(one)
    expect(await cost(() => store.get("one:a"))).toEqual(one)
    expect(await cost(() => store.hit("one:counter", 60_000, 5))).toEqual(one)
    expect(await cost(() => store.consumeOnce("one:once", 60_000))).toEqual(one)
    expect(
      await cost(() => store.mapSet("one:map", "f", "v", 60_000, { maxFields: 2, rank: 1 })),
    ).toEqual(one)
    expect(await cost(() => store.mapGetAll("one:map"))).toEqual(one)
  })

  it("shares a database with RedisStore: same keys, same counters, same map fields", async () => {
    const shared = uniquePrefix("shared")
    const node = new RedisStore({ client: direct, prefix: shared })
    const edge = new UpstashStore({ url: bridge.url, token: bridge.token, prefix: shared })

    await node.set("revoked:s1", "1", 60_000)
    expect(await edge.get("revoked:s1")).toBe("1")
    await edge.set("version:u1", "7", 60_000)
    expect(await node.getMany(["version:u1", "revoked:s1"])).toEqual(["7", "1"])

    expect(await node.consumeOnce("state:x", 60_000)).toBe(true)
    expect(await edge.consumeOnce("state:x", 60_000)).toBe(false)

    // One counter, hit from both sides: the fourth attempt is refused whoever makes it.
    expect((await node.hit("limit:ip", 60_000, 3)).allowed).toBe(true)
    expect((await edge.hit("limit:ip", 60_000, 3)).allowed).toBe(true)
    expect((await node.hit("limit:ip", 60_000, 3)).allowed).toBe(true)
    expect((await edge.hit("limit:ip", 60_000, 3)).allowed).toBe(false)

    // The session list: fields written by either store, bounded by either, read by both.
    await node.mapSet!("sessions:u1", "a", "A", 60_000, { maxFields: 2, rank: 1 })
    await edge.mapSet("sessions:u1", "b", "B", 60_000, { maxFields: 2, rank: 3 })
    await node.mapSet!("sessions:u1", "c", "C", 60_000, { maxFields: 2, rank: 2 })
    expect(await edge.mapGetAll("sessions:u1")).toEqual({ b: "B", c: "C" })
    expect(await node.mapGetAll!("sessions:u1")).toEqual({ b: "B", c: "C" })
    await edge.mapDelete("sessions:u1", ["c"])
    expect(await node.mapGet!("sessions:u1", "c")).toBeNull()
  })

  it("bounded mapSet: each field expires on its own; over the bound the lowest ranks go", async () => {
    await store.mapSet("bounded", "short", "S", 150, { maxFields: 3, rank: 9 })
    await store.mapSet("bounded", "long", "L", 60_000, { maxFields: 3, rank: 5 })
    await new Promise((resolve) => setTimeout(resolve, 250))
    expect(await store.mapGet("bounded", "short")).toBeNull()
    expect(await store.mapGetAll("bounded")).toEqual({ long: "L" })
    for (const [field, rank] of [
      ["r1", 1],
      ["r7", 7],
      ["r3", 3],
      ["r6", 6],
    ] as const) {
      await store.mapSet("bounded", field, field, 60_000, { maxFields: 3, rank })
    }
    expect(Object.keys(await store.mapGetAll("bounded")).sort()).toEqual(["long", "r6", "r7"])
    // The map's key lives as long as its longest-lived field.
    const pttl = Number(await direct.sendCommand(["PTTL", `${prefix}bounded`]))
    expect(pttl).toBeGreaterThan(55_000)
  })

  it("a refused command is a StoreError naming the operation; neither key nor value shows anywhere", async () => {
    const secretKey = "user@example.com"
    const secretValue = "refresh-grace-secret-value"
    await direct.sendCommand(["SET", `${prefix}${secretKey}`, secretValue, "PX", "60000"])
    const error = await failureOf(() => store.mapSet(secretKey, "f", secretValue, 60_000))
    expect(error).toBeInstanceOf(StoreError)
    expect(error!.type).toBe("StoreError")
    expect(error!.details).toEqual({ operation: "mapSet", reason: "refused" })
    expect(error!.message).toBe("The Redis REST endpoint refused the store's mapSet command")
    // The endpoint's own words are kept (they say what went wrong)…
    expect(String(error!.cause)).toMatch(/WRONGTYPE/)
    // …but not the command @upstash/redis appends to them.
    const everything = `${error!.message} ${String(error!.cause)} ${(error!.cause as Error).stack} ${JSON.stringify(error)}`
    expect(everything).not.toContain(secretKey)
    expect(everything).not.toContain(secretValue)
    // The endpoint answered: no pause, the next command goes out.
    const before = bridge.stats.requests
    expect(await store.get("whatever")).toBeNull()
    expect(bridge.stats.requests).toBe(before + 1)
  })

  it("a wrong token is a StoreError (refused), the token in no message", async () => {
    const wrong = new UpstashStore({ url: bridge.url, token: TOKEN })
    const error = await failureOf(() => wrong.get("k"))
    expect(error).toBeInstanceOf(StoreError)
    expect(error!.details).toEqual({ operation: "get", reason: "refused" })
    expect(String(error!.cause)).toMatch(/Unauthorized/)
    expect(`${error!.message} ${String(error!.cause)} ${JSON.stringify(error)}`).not.toContain(
      TOKEN,
    )
  })

  it("an answer of the wrong shape is an error, never a value: only OK is a first use", async () => {
    // An app's client whose replies something rewrote (a middleware, a proxy, an aborted
    // request that @upstash/redis turns into the result "Aborted").
    const rewriting = (result: unknown) => {
      const client = upstashClient(bridge)
      client.use(async () => ({ result }) as never)
      return new UpstashStore({ client, prefix })
    }
    for (const [result, run] of [
      ["Aborted", (s: UpstashStore) => s.consumeOnce("once", 60_000)],
      [1, (s: UpstashStore) => s.consumeOnce("once", 60_000)],
      [42, (s: UpstashStore) => s.get("k")],
      [{ a: 1 }, (s: UpstashStore) => s.get("k")],
      [["only-one"], (s: UpstashStore) => s.getMany(["a", "b"])],
      [["f"], (s: UpstashStore) => s.mapGetAll("m")],
      ["3", (s: UpstashStore) => s.hit("h", 60_000, 5)],
      [null, (s: UpstashStore) => s.set("k", "v", 60_000)],
    ] as const) {
      const error = await failureOf(() => run(rewriting(result)))
      expect(error, JSON.stringify(result)).toBeInstanceOf(StoreError)
      expect(error!.details).toMatchObject({ reason: "unexpected-reply" })
    }
  })
  it("an answer that is not JSON (a proxy's error page) is a StoreError, and pauses like an outage", async () => {
    const client = upstashClient(bridge)
    let sent = 0
    client.use(async () => {
      sent++
      throw new errors.UpstashJSONParseError("<html>502 Bad Gateway</html>")
    })
    const proxied = new UpstashStore({ client, prefix, pauseAfterFailureMs: 60_000 })
    const first = await failureOf(() => proxied.get("k"))
    expect(first).toBeInstanceOf(StoreError)
    expect(first!.details).toEqual({ operation: "get", reason: "unexpected-reply" })
    const second = await failureOf(() => proxied.set("k", "v", 60_000))
    expect(second!.details).toEqual({ operation: "set", reason: "paused-after-failure" })
    expect(sent).toBe(1)
  })
})

describe.skipIf(!REDIS_URL || !hasRedisServer)("UpstashStore on a Redis of its own", () => {
  let server: RedisServer
  let bridge: Bridge
  beforeAll(async () => {
    server = await startRedisServer()
    bridge = await startBridge({ redisUrl: server.url })
  })
  afterAll(async () => {
    await bridge?.close()
    await server?.kill()
  })

  it("runs scripts by SHA: the script itself only once, after Redis answers NOSCRIPT", async () => {
    const store = new UpstashStore({ url: bridge.url, token: bridge.token })
    const cost = async (run: () => Promise<unknown>) => {
      const before = bridge.stats.commands
      await run()
      return bridge.stats.commands - before
    }
    // A fresh server knows no script: EVALSHA (NOSCRIPT), then EVAL.
    expect(await cost(() => store.hit("k", 60_000, 5))).toBe(2)
    expect(await cost(() => store.hit("k", 60_000, 5))).toBe(1)
    expect(await cost(() => store.mapSet("m", "f", "v", 60_000))).toBe(2)
    expect(await cost(() => store.mapSet("m", "g", "v", 60_000))).toBe(1)
    expect((await store.hit("k", 60_000, 3)).allowed).toBe(true)
    expect((await store.hit("k", 60_000, 3)).allowed).toBe(false)
  })

  it("a full database refuses writes with StoreFull (fail closed); reads still work", async () => {
    const direct = await connect(server.url)
    try {
      const store = new UpstashStore({ url: bridge.url, token: bridge.token })
      await store.set("kept", "still here", 60_000)
      // A limit below what Redis already uses: every write that needs memory is refused.
      await direct.sendCommand(["CONFIG", "SET", "maxmemory-policy", "noeviction"])
      await direct.sendCommand(["CONFIG", "SET", "maxmemory", "1"])
      const error = await failureOf(() => store.set("more", "x", 60_000))
      expect(error).toBeInstanceOf(StoreFull)
      expect(error!.type).toBe("StoreFull")
      expect(error!.details).toEqual({ operation: "set", reason: "full" })
      expect((await failureOf(() => store.consumeOnce("marker", 60_000)))?.type).toBe("StoreFull")
      expect(await store.get("kept")).toBe("still here")
    } finally {
      await direct.sendCommand(["CONFIG", "SET", "maxmemory", "0"])
      await direct.close()
    }
  })
})
