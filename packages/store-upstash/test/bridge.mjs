// @ts-check
/**
 * A TEST BRIDGE, not a product: a loopback HTTP server that speaks Upstash's documented Redis
 * REST API and forwards every command to a real Redis through node-redis. The HTTP store's
 * tests, its benchmark and the runtime matrix use it to run `@upstash/redis` against the
 * machine's Redis without an Upstash account. It listens on 127.0.0.1 only, has one token and
 * no TLS.
 *
 * What it implements (Upstash "REST API" documentation):
 * - `POST /` with the command as a JSON array (`["SET", "k", "v", "PX", 1000]`);
 * - `GET|POST|PUT /cmd/arg1/arg2…`, a POST body appended as the last argument and query
 *   parameters after it (`?EX=100` → `EX 100`);
 * - `POST /pipeline` (a JSON array of commands; one `{result}|{error}` per command, not atomic)
 *   and `POST /multi-exec` (the same, in one MULTI/EXEC; a discarded transaction is one
 *   `{error}`);
 * - `Authorization: Bearer <token>` or `?_token=<token>`, else 401 `{"error":"Unauthorized"}`;
 * - `{ "result": … }` with 200, `{ "error": "ERR …" }` with 400 for a failed command, 405 for
 *   another method;
 * - `Upstash-Encoding: base64`: every string in a result is base64 (UTF-8), except "OK".
 *
 * It refuses what cannot share one Redis connection between requests (blocking commands,
 * MULTI/WATCH/SELECT/SUBSCRIBE and the like), as Upstash's REST API refuses blocking ones.
 */
import { timingSafeEqual } from "node:crypto"
import { createServer } from "node:http"
import { createClient } from "@redis/client"

/**
 * @typedef {object} BridgeOptions
 * @property {string} [redisUrl] Redis to forward to. Default `process.env.REDIS_URL`.
 * @property {string} [token] The bearer token clients must send. Default: a random one.
 * @property {number} [port] Port on 127.0.0.1. Default: a free one.
 */

/**
 * @typedef {object} Bridge
 * @property {string} url `http://127.0.0.1:<port>`, what `new Redis({ url })` takes.
 * @property {string} token
 * @property {number} port
 * @property {{ requests: number, commands: number }} stats HTTP requests received (frozen,
 *   unauthorized and refused ones included) and Redis commands forwarded, since the start.
 * @property {() => void} freeze From now on requests are held unanswered (a service that
 *   stopped answering on open connections) until `thaw`.
 * @property {() => void} thaw Answers the held requests and new ones again.
 * @property {() => Promise<void>} stop Stops listening and drops open connections (a service
 *   that is gone: connections are refused). Redis stays connected.
 * @property {() => Promise<void>} start Listens again on the same port after `stop`.
 * @property {() => Promise<void>} close Stops and disconnects from Redis.
 */

/** Commands that would block or change the state of the one connection every request shares. */
const REFUSED = new Set([
  "AUTH",
  "BLMOVE",
  "BLMPOP",
  "BLPOP",
  "BRPOP",
  "BRPOPLPUSH",
  "BZMPOP",
  "BZPOPMAX",
  "BZPOPMIN",
  "CLIENT",
  "DISCARD",
  "EXEC",
  "HELLO",
  "MONITOR",
  "MULTI",
  "PSUBSCRIBE",
  "PUNSUBSCRIBE",
  "QUIT",
  "RESET",
  "SELECT",
  "SSUBSCRIBE",
  "SUBSCRIBE",
  "SUNSUBSCRIBE",
  "UNSUBSCRIBE",
  "UNWATCH",
  "WAIT",
  "WATCH",
])

const MAX_BODY_BYTES = 16 * 1024 * 1024

/** A request the bridge answers with a 4xx and an `{error}` body. */
class BadRequest extends Error {
  /** @param {number} status @param {string} message */
  constructor(status, message) {
    super(message)
    this.status = status
  }
}

/**
 * One command as Redis gets it: strings only. The client sends numbers and booleans as JSON
 * values (`["SET","k","v","EX",100]`).
 * @param {unknown} value
 * @returns {string[]}
 */
function toCommand(value) {
  if (!Array.isArray(value) || value.length === 0) {
    throw new BadRequest(400, "ERR the command must be a non-empty JSON array")
  }
  return value.map((arg) => {
    if (typeof arg === "string") return arg
    if (typeof arg === "number" || typeof arg === "boolean") return String(arg)
    throw new BadRequest(400, "ERR every argument must be a string, a number or a boolean")
  })
}

/** @param {string} text */
function parseJson(text) {
  try {
    return JSON.parse(text)
  } catch {
    throw new BadRequest(400, "ERR the request body is not valid JSON")
  }
}

/**
 * A Redis reply as Upstash's JSON has it; with base64 every string but "OK" is encoded.
 * @param {unknown} reply
 * @param {boolean} base64
 * @returns {unknown}
 */
function toJson(reply, base64) {
  if (reply === null || reply === undefined) return null
  if (typeof reply === "string") {
    return base64 && reply !== "OK" ? Buffer.from(reply, "utf8").toString("base64") : reply
  }
  if (typeof reply === "number" || typeof reply === "boolean") return reply
  if (typeof reply === "bigint") return Number(reply)
  if (Array.isArray(reply)) return reply.map((item) => toJson(item, base64))
  // An error inside an array (a script's error table): its message, as a string.
  if (reply instanceof Error) return toJson(reply.message, base64)
  return toJson(String(reply), base64)
}

/** @param {unknown} error */
const messageOf = (error) => (error instanceof Error ? error.message : String(error))

/** @param {import("node:http").IncomingMessage} req */
async function readBody(req) {
  /** @type {Buffer[]} */
  const chunks = []
  let size = 0
  for await (const chunk of req) {
    size += chunk.length
    if (size > MAX_BODY_BYTES) throw new BadRequest(413, "ERR max request size exceeded")
    chunks.push(chunk)
  }
  return Buffer.concat(chunks).toString("utf8")
}

/**
 * Starts a bridge to the Redis at `redisUrl` on a loopback port.
 * @param {BridgeOptions} [options]
 * @returns {Promise<Bridge>}
 */
export async function startBridge(options = {}) {
  const redisUrl = options.redisUrl ?? process.env.REDIS_URL
  if (!redisUrl) throw new Error("startBridge needs a Redis URL (redisUrl or REDIS_URL)")
  const token = options.token ?? crypto.randomUUID().replaceAll("-", "")
  const expected = Buffer.from(`Bearer ${token}`)

  // RESP2: Upstash's JSON answers have RESP2's shapes (HGETALL is a flat array, not a map).
  // disableOfflineQueue: with Redis gone, a command fails at once (a 500 here) instead of
  // waiting in node-redis's queue; the bridge itself never hangs a request on its own.
  const redis = createClient({ url: redisUrl, RESP: 2, disableOfflineQueue: true })
  redis.on("error", () => {})
  await redis.connect()

  const stats = { requests: 0, commands: 0 }
  let frozen = false
  /** @type {(() => void)[]} */
  let held = []

  /** @param {string[]} command */
  const run = (command) => {
    const name = command[0]?.toUpperCase() ?? ""
    if (REFUSED.has(name)) {
      return Promise.reject(new Error(`ERR Command is not available over the bridge: ${name}`))
    }
    stats.commands++
    return redis.sendCommand(command)
  }

  /** @param {import("node:http").IncomingMessage} req @param {URL} url */
  const authorized = (req, url) => {
    const given = req.headers.authorization
      ? Buffer.from(req.headers.authorization)
      : Buffer.from(`Bearer ${url.searchParams.get("_token") ?? ""}`)
    return given.length === expected.length && timingSafeEqual(given, expected)
  }

  /**
   * @param {import("node:http").IncomingMessage} req
   * @returns {Promise<{ status: number, body: unknown }>}
   */
  const answer = async (req) => {
    const url = new URL(req.url ?? "/", "http://bridge")
    if (!authorized(req, url)) return { status: 401, body: { error: "Unauthorized" } }
    const method = req.method ?? "GET"
    if (!["GET", "HEAD", "POST", "PUT"].includes(method)) {
      return { status: 405, body: { error: "Method Not Allowed" } }
    }
    const base64 = String(req.headers["upstash-encoding"] ?? "").toLowerCase() === "base64"
    const body = await readBody(req)
    const path = url.pathname.replace(/\/+$/, "")

    if (path === "/pipeline" || path === "/multi-exec") {
      const parsed = parseJson(body)
      if (!Array.isArray(parsed)) throw new BadRequest(400, "ERR expected an array of commands")
      const commands = parsed.map(toCommand)
      if (path === "/pipeline") {
        const replies = await Promise.all(
          commands.map((command) =>
            run(command).then(
              (result) => ({ result: toJson(result, base64) }),
              (error) => ({ error: messageOf(error) }),
            ),
          ),
        )
        return { status: 200, body: replies }
      }
      const refused = commands.find((command) => REFUSED.has(command[0]?.toUpperCase() ?? ""))
      if (refused) {
        const name = refused[0]?.toUpperCase()
        throw new BadRequest(400, `ERR Command is not available over the bridge: ${name}`)
      }
      const multi = redis.multi()
      for (const command of commands) multi.addCommand(command)
      stats.commands += commands.length
      try {
        const replies = await multi.exec()
        return { status: 200, body: replies.map((result) => ({ result: toJson(result, base64) })) }
      } catch (error) {
        // Executed, with some commands failing: one entry each, as Redis itself answers.
        const failed = /** @type {{ replies?: unknown[], errorIndexes?: number[] }} */ (error)
        if (Array.isArray(failed.replies) && Array.isArray(failed.errorIndexes)) {
          const errorAt = new Set(failed.errorIndexes)
          return {
            status: 200,
            body: failed.replies.map((reply, i) =>
              errorAt.has(i) ? { error: messageOf(reply) } : { result: toJson(reply, base64) },
            ),
          }
        }
        // Discarded as a whole (EXECABORT: a command was malformed).
        throw new BadRequest(400, messageOf(error))
      }
    }

    /** @type {string[]} */
    let command
    if (path === "") {
      if (method === "GET" || method === "HEAD") {
        throw new BadRequest(400, "ERR send the command in the path or as a JSON array body")
      }
      command = toCommand(parseJson(body))
    } else {
      command = path
        .slice(1)
        .split("/")
        .map((segment) => decodeURIComponent(segment))
      if (body !== "") command.push(body)
      for (const [name, value] of url.searchParams) {
        if (name !== "_token") command.push(name, value)
      }
    }
    try {
      return { status: 200, body: { result: toJson(await run(command), base64) } }
    } catch (error) {
      return { status: 400, body: { error: messageOf(error) } }
    }
  }

  const server = createServer((req, res) => {
    stats.requests++
    const respond = () => {
      answer(req)
        .catch((error) =>
          error instanceof BadRequest
            ? { status: error.status, body: { error: error.message } }
            : {
                status: 500,
                body: { error: `ERR the bridge could not reach Redis: ${messageOf(error)}` },
              },
        )
        .then(({ status, body }) => {
          const text = JSON.stringify(body)
          res.writeHead(status, { "content-type": "application/json" })
          res.end(req.method === "HEAD" ? undefined : text)
        })
    }
    if (frozen) held.push(respond)
    else respond()
  })
  // Node's default keep-alive timeout (5 s) is shorter than some clients'; a reused socket the
  // server just closed would fail a request. Keep idle sockets a while longer.
  server.keepAliveTimeout = 60_000

  /** @param {number} port */
  const listen = (port) =>
    new Promise((resolve, reject) => {
      server.once("error", reject)
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject)
        resolve(undefined)
      })
    })
  await listen(options.port ?? 0)
  const address = server.address()
  if (!address || typeof address === "string") throw new Error("the bridge has no port")
  const port = address.port
  let listening = true

  const stop = async () => {
    if (!listening) return
    listening = false
    const closed = new Promise((resolve) => server.close(() => resolve(undefined)))
    server.closeAllConnections()
    await closed
  }

  return {
    url: `http://127.0.0.1:${port}`,
    token,
    port,
    stats,
    freeze: () => {
      frozen = true
    },
    thaw: () => {
      frozen = false
      const waiting = held
      held = []
      for (const respond of waiting) respond()
    },
    stop,
    start: async () => {
      if (listening) return
      await listen(port)
      listening = true
    },
    close: async () => {
      held = []
      await stop()
      await redis.close()
    },
  }
}
