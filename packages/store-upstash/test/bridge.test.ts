/**
 * The test bridge's own behaviour: what `@upstash/redis` gets through it is what node-redis gets
 * from the same Redis directly (strings, integers, nil, arrays, errors, a script), in both of
 * Upstash's response encodings; the documented REST surface (path commands, `_token`, pipeline,
 * multi-exec, base64) answers as Upstash's documentation says; no token, no answer.
 *
 * Skipped without REDIS_URL (the bridge forwards to a real Redis).
 */
import { errors, type Redis } from "@upstash/redis"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import {
  type Bridge,
  connect,
  REDIS_URL,
  startBridge,
  uniquePrefix,
  upstashClient,
} from "./helpers.js"

type Outcome = { result: unknown } | { error: string }

/** One scenario of commands; `k(…)` names a key under the run's own prefix. */
const scenario = (k: (name: string) => string): string[][] => [
  ["SET", k("s"), "plain ascii", "PX", "60000"],
  ["GET", k("s")],
  // Multi-byte UTF-8, an emoji (a surrogate pair in JS), a control character, and JSON text
  // the client must not parse.
  ["SET", k("u"), 'héllo 🔐 \u0001 {"a": 1}', "PX", "60000"],
  ["GET", k("u")],
  ["SET", k("ok"), "OK", "PX", "60000"],
  ["GET", k("ok")],
  ["GET", k("missing")],
  ["SET", k("once"), "1", "NX", "PX", "60000"],
  ["SET", k("once"), "1", "NX", "PX", "60000"],
  ["INCR", k("n")],
  ["INCRBY", k("n"), "41"],
  ["PEXPIRE", k("n"), "60000"],
  ["MGET", k("s"), k("missing"), k("n")],
  ["HSET", k("h"), "f1", "v1", "f2", "\u0001123:0:v2"],
  ["PEXPIRE", k("h"), "60000"],
  ["HGET", k("h"), "f2"],
  ["HGET", k("h"), "nope"],
  ["HGETALL", k("h")],
  ["HGETALL", k("missing")],
  ["HDEL", k("h"), "f1", "nope"],
  ["RPUSH", k("l"), "a", "b", "c"],
  ["PEXPIRE", k("l"), "60000"],
  ["LRANGE", k("l"), "0", "-1"],
  [
    "EVAL",
    "return { 1, 'two', false, { 3, 'four', { 'five' } }, redis.call('INCR', KEYS[1]) }",
    "1",
    k("n"),
  ],
  ["INCR", k("s")],
  ["GET"],
  ["EVAL", "return redis.call('NOSUCHCOMMAND')", "0"],
  ["DEL", k("s"), k("u"), k("ok"), k("once"), k("n"), k("h"), k("l")],
]

/** Error messages without what differs by construction (the caller's file and line in Lua). */
const normalise = (outcomes: Outcome[]) =>
  outcomes.map((o) =>
    "error" in o ? { error: o.error.replace(/script: \w+/, "script: <sha>") } : o,
  )

describe.skipIf(!REDIS_URL)("the test bridge (Upstash REST API in front of REDIS_URL)", () => {
  let bridge: Bridge
  let direct: Awaited<ReturnType<typeof connect>>

  beforeAll(async () => {
    bridge = await startBridge({ redisUrl: REDIS_URL! })
    direct = await connect(REDIS_URL!)
  })
  afterAll(async () => {
    await bridge?.close()
    await direct?.close()
  })

  const viaNodeRedis = async (commands: string[][]): Promise<Outcome[]> => {
    const out: Outcome[] = []
    for (const command of commands) {
      try {
        out.push({ result: await direct.sendCommand(command) })
      } catch (error) {
        out.push({ error: (error as Error).message })
      }
    }
    return out
  }

  const viaBridge = async (client: Redis, commands: string[][]): Promise<Outcome[]> => {
    const out: Outcome[] = []
    for (const command of commands) {
      try {
        out.push({ result: await client.exec(command as [string, ...string[]]) })
      } catch (error) {
        expect(error).toBeInstanceOf(errors.UpstashError)
        // The client appends the command it sent to a failed request's message.
        out.push({ error: (error as Error).message.replace(/, command was: .*$/s, "") })
      }
    }
    return out
  }

  for (const encoding of ["base64", "plain JSON"] as const) {
    it(`@upstash/redis through the bridge answers as node-redis does (${encoding})`, async () => {
      const client = upstashClient(bridge, {
        enableAutoPipelining: false,
        ...(encoding === "plain JSON" ? { responseEncoding: false } : {}),
      })
      const a = uniquePrefix("bridge-direct")
      const b = uniquePrefix("bridge-http")
      const expected = await viaNodeRedis(scenario((name) => a + name))
      const actual = await viaBridge(
        client,
        scenario((name) => b + name),
      )
      expect(normalise(actual)).toEqual(normalise(expected))
      // The scenario exercised every kind of answer (so the comparison above means something).
      const results = expected.map((o) => ("result" in o ? o.result : undefined))
      expect(results).toContain(null)
      expect(results).toContain(42)
      expect(results).toContain('héllo 🔐 \u0001 {"a": 1}')
      expect(results).toContainEqual([1, "two", null, [3, "four", ["five"]], 43])
      expect(expected.filter((o) => "error" in o)).toHaveLength(3)
    })
  }

  it("auto-pipelined commands arrive as one /pipeline request, each with its own answer", async () => {
    const client = upstashClient(bridge, { enableAutoPipelining: true })
    const k = uniquePrefix("bridge-auto")
    await direct.sendCommand(["SET", `${k}a`, "A", "PX", "60000"])
    const before = bridge.stats.requests
    const [a, missing, failed] = await Promise.allSettled([
      client.get(`${k}a`),
      client.get(`${k}b`),
      client.hget(`${k}a`, "f"),
    ])
    expect(bridge.stats.requests - before).toBe(1)
    expect(a).toEqual({ status: "fulfilled", value: "A" })
    expect(missing).toEqual({ status: "fulfilled", value: null })
    expect(failed.status).toBe("rejected")
    expect(String((failed as PromiseRejectedResult).reason)).toMatch(/WRONGTYPE/)
  })

  describe("the REST surface, as Upstash documents it", () => {
    const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(bridge.url + path, {
        method: "POST",
        headers: { authorization: `Bearer ${bridge.token}`, ...headers },
        body: typeof body === "string" ? body : JSON.stringify(body),
      })

    it("refuses a request without the token, or with another one (401), and runs nothing", async () => {
      const k = `${uniquePrefix("bridge-auth")}x`
      const before = bridge.stats.commands
      const none = await fetch(`${bridge.url}/`, {
        method: "POST",
        body: JSON.stringify(["SET", k, "1"]),
      })
      expect(none.status).toBe(401)
      expect(await none.json()).toEqual({ error: "Unauthorized" })
      const wrong = await post("/", ["SET", k, "1"], { authorization: "Bearer not-the-token" })
      expect(wrong.status).toBe(401)
      const query = await fetch(`${bridge.url}/set/${k}/1?_token=not-the-token`)
      expect(query.status).toBe(401)
      expect(bridge.stats.commands).toBe(before)
      expect(await direct.sendCommand(["EXISTS", k])).toBe(0)
      // Through the client: a typed error, not a value.
      const stranger = upstashClient({ url: bridge.url, token: "not-the-token" })
      await expect(stranger.exec(["GET", k])).rejects.toThrow(/^Unauthorized/)
    })

    it("runs path-style commands, a POST body as the last argument, query parameters after it, and ?_token", async () => {
      const k = `${uniquePrefix("bridge-path")}x`
      const set = await fetch(
        `${bridge.url}/set/${encodeURIComponent(k)}?_token=${bridge.token}&PX=60000`,
        {
          method: "POST",
          body: "a value/with slashes",
        },
      )
      expect(await set.json()).toEqual({ result: "OK" })
      expect(await direct.sendCommand(["GET", k])).toBe("a value/with slashes")
      expect(Number(await direct.sendCommand(["PTTL", k]))).toBeGreaterThan(50_000)
      const get = await fetch(`${bridge.url}/get/${encodeURIComponent(k)}`, {
        headers: { authorization: `Bearer ${bridge.token}` },
      })
      expect(await get.json()).toEqual({ result: "a value/with slashes" })
    })

    it("answers a failed command with 400 and { error }", async () => {
      const res = await post("/", ["GET"])
      expect(res.status).toBe(400)
      expect(await res.json()).toEqual({ error: "ERR wrong number of arguments for 'get' command" })
      const bad = await post("/", "not json")
      expect(bad.status).toBe(400)
    })

    it("base64: every string of the result is encoded (UTF-8) but OK; integers and nil stay", async () => {
      const k = `${uniquePrefix("bridge-b64")}x`
      const headers = { "upstash-encoding": "base64" }
      expect(await (await post("/", ["SET", k, "bär", "PX", 60000], headers)).json()).toEqual({
        result: "OK",
      })
      expect(await (await post("/", ["GET", k], headers)).json()).toEqual({
        result: btoa(String.fromCharCode(...new TextEncoder().encode("bär"))),
      })
      expect(await (await post("/", ["MGET", k, `${k}-none`], headers)).json()).toEqual({
        result: ["YsOkcg==", null],
      })
      expect(await (await post("/", ["STRLEN", k], headers)).json()).toEqual({ result: 4 })
      // Without the header: plain strings.
      expect(await (await post("/", ["GET", k])).json()).toEqual({ result: "bär" })
    })

    it("/pipeline: one answer per command, in order, an error in its own entry", async () => {
      const k = `${uniquePrefix("bridge-pipe")}x`
      const res = await post("/pipeline", [
        ["SET", k, "v", "PX", 60000],
        ["INCR", k],
        ["GET", k],
      ])
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual([
        { result: "OK" },
        { error: "ERR value is not an integer or out of range" },
        { result: "v" },
      ])
    })

    it("/multi-exec: the commands run as one transaction; a failing command gets its entry, the rest still run", async () => {
      const k = `${uniquePrefix("bridge-multi")}x`
      const res = await post("/multi-exec", [
        ["SET", k, "1", "PX", 60000],
        ["INCR", k],
        ["HGET", k, "f"],
        ["INCR", k],
      ])
      expect(res.status).toBe(200)
      const body = (await res.json()) as Outcome[]
      expect(body[0]).toEqual({ result: "OK" })
      expect(body[1]).toEqual({ result: 2 })
      expect((body[2] as { error: string }).error).toMatch(/^WRONGTYPE/)
      expect(body[3]).toEqual({ result: 3 })
    })

    it("/multi-exec: a malformed command discards the whole transaction (one { error }, 400, nothing written)", async () => {
      const k = `${uniquePrefix("bridge-discard")}x`
      const res = await post("/multi-exec", [["SET", k, "1"], ["GET"]])
      expect(res.status).toBe(400)
      expect(Object.keys((await res.json()) as object)).toEqual(["error"])
      expect(await direct.sendCommand(["EXISTS", k])).toBe(0)
    })

    it("/multi-exec through the client (redis.multi())", async () => {
      const client = upstashClient(bridge, { enableAutoPipelining: false })
      const k = `${uniquePrefix("bridge-multi-client")}x`
      const replies = await client.multi().set(k, "a", { px: 60_000 }).append(k, "b").get(k).exec()
      expect(replies).toEqual(["OK", 2, "ab"])
    })

    it("refuses what cannot share its one Redis connection (blocking, MULTI, SELECT), and other methods (405)", async () => {
      for (const command of [["BLPOP", "k", "0"], ["SELECT", "1"], ["MULTI"], ["SUBSCRIBE", "c"]]) {
        const res = await post("/", command)
        expect(res.status).toBe(400)
        expect(((await res.json()) as { error: string }).error).toMatch(/not available/)
      }
      const del = await fetch(`${bridge.url}/`, {
        method: "DELETE",
        headers: { authorization: `Bearer ${bridge.token}` },
      })
      expect(del.status).toBe(405)
    })
  })
})

describe.skipIf(REDIS_URL)("the test bridge (set REDIS_URL)", () => {
  it("needs REDIS_URL", () => {})
})
