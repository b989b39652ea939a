/**
 * `UpstashStore`: the Latchkey store on Redis over HTTP — Upstash Redis's REST API, which Vercel
 * KV speaks too — for apps on the edge (Cloudflare Workers, Vercel Edge, Deno, Bun), where a
 * TCP Redis client cannot run. Every instance of the app shares it.
 *
 * - Atomic, with the very scripts `RedisStore` runs (`@latchkey/store-redis/scripts`): `hit`
 *   and the bounded `mapSet` are one Lua script each (EVALSHA, the script itself once after a
 *   NOSCRIPT), `consumeOnce` is `SET NX PX`, `set` is `SET PX`, `getMany` one `MGET`. The keys
 *   and map fields are the same as RedisStore's, so Node instances on RedisStore and edge
 *   instances on this store can share one database.
 * - Every key is under `prefix` and has a TTL; values are bounded (`maxValueBytes`).
 * - Every command has a timeout (`commandTimeoutMs`): a dead or slow endpoint is a
 *   `StoreTimeout` (or `StoreError` when the connection is refused), never a hang.
 * - An outage costs nothing per request: after a timeout or an unreachable endpoint, commands
 *   fail at once for `pauseAfterFailureMs`, then one tries again.
 *
 * Web platform only (fetch, Web Crypto, AbortSignal): no `Buffer`, no `node:*`.
 */
import { InvalidParameter, StoreError, StoreFull, StoreTimeout } from "@latchkey/core/errors"
import {
  assertMapBound,
  assertStoreValue,
  assertTtl,
  type HitOptions,
  type MapBound,
  type RateLimitResult,
  type Store,
} from "@latchkey/core/store"
import {
  HIT_SCRIPT,
  liveFieldValue,
  MAP_SET_SCRIPT,
  mapSetArgs,
  scriptSha1,
} from "@latchkey/store-redis/scripts"
import { errors, Redis } from "@upstash/redis"

export interface UpstashStoreOptions {
  /**
   * An `@upstash/redis` client the app made, with `automaticDeserialization: false` (the store
   * reads values as the strings they are; the client's default would parse any JSON-looking
   * value). Give it `retry: { retries: 0 }` too: the store's own pause handles an outage, and
   * retries only spend the command's timeout. Either `client` or `url` and `token`.
   */
  client?: Redis
  /** The REST URL (`UPSTASH_REDIS_REST_URL`, `KV_REST_API_URL`); the store makes the client. */
  url?: string
  /** The REST token (`UPSTASH_REDIS_REST_TOKEN`, `KV_REST_API_TOKEN`). */
  token?: string
  /** Prefix of every key. Default `"latchkey:"`, as RedisStore's. Give each app its own. */
  prefix?: string
  /**
   * Longest wait for one command (one HTTP request), in milliseconds. Default 1000: a request
   * crosses the internet to a database that may be in another region, where RedisStore's
   * 500 ms is for a server next door.
   */
  commandTimeoutMs?: number
  /** Largest value `set` and `mapSet` accept, in UTF-8 bytes. Default 64 KiB. */
  maxValueBytes?: number
  /**
   * After a command times out or the endpoint cannot be reached, how long further commands
   * fail at once (`StoreError`) instead of each paying for the same outage. Default 1000 ms.
   */
  pauseAfterFailureMs?: number
}

/** Why a command failed, as `details.reason` says it (a `StoreTimeout` has none). */
type FailureReason =
  | "unreachable"
  | "unexpected-reply"
  | "refused"
  | "paused-after-timeout"
  | "paused-after-failure"

/**
 * A database with no room left refusing a write: Redis's own words (`maxmemory` under
 * `noeviction`) and Upstash's (its data-size quota, eviction off).
 */
const isFull = (error: unknown) =>
  /OOM command not allowed|DB capacity quota exceeded/.test(String(error))

const isTimeout = (error: unknown) =>
  error instanceof Error && (error.name === "TimeoutError" || error.name.endsWith("TimeoutError"))

/**
 * The endpoint's own words, without what `@upstash/redis` appends to a failed request's message:
 * the command it sent, whose keys may hold an address and whose values may be secrets.
 */
function redacted(error: Error): Error {
  const message = error.message.replace(/, command was: [\s\S]*$/, "")
  const copy = new Error(message)
  copy.name = error.name
  return copy
}

/**
 * Every request carries the database's token as a bearer header: over plain `http://` anyone on
 * the path reads it and then owns the database. Plain http is left to loopback (a local bridge
 * or emulator in tests), where the request never leaves the machine.
 */
function assertTlsOffLoopback(parameter: "url" | "client", url: string): void {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch {
    throw new InvalidParameter(parameter, "must be the REST URL of the database (https://…)")
  }
  if (parsed.protocol === "https:" || isLoopbackHost(parsed.hostname)) return
  throw new InvalidParameter(
    parameter,
    `${parameter === "client" ? "sends to" : "is"} a plain http:// URL off this machine: the REST token would travel in clear. Use the database's https:// URL (Upstash and Vercel KV give one); plain http is only accepted for a loopback address (localhost, 127.0.0.0/8, [::1])`,
  )
}

/** localhost, 127.0.0.0/8 or ::1, as the URL parser writes them. */
function isLoopbackHost(hostname: string): boolean {
  return (
    hostname === "localhost" ||
    hostname === "[::1]" ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname)
  )
}

export class UpstashStore implements Store {
  readonly #client: Redis
  readonly #prefix: string
  readonly #timeoutMs: number
  readonly #maxValueBytes: number
  readonly #pauseMs: number
  /** Until when (epoch ms) commands are not sent, after a failure, and which kind it was. */
  #pausedUntil = 0
  #pauseCause: "timeout" | "failure" = "timeout"

  constructor(options: UpstashStoreOptions) {
    if (!options || typeof options !== "object") {
      throw new InvalidParameter("options", "must be { client } or { url, token }")
    }
    this.#prefix = options.prefix ?? "latchkey:"
    this.#timeoutMs = options.commandTimeoutMs ?? 1000
    this.#maxValueBytes = options.maxValueBytes ?? 64 * 1024
    this.#pauseMs = options.pauseAfterFailureMs ?? 1000
    assertTtl(this.#timeoutMs, "commandTimeoutMs")
    assertTtl(this.#pauseMs, "pauseAfterFailureMs")
    this.#client = options.client
      ? UpstashStore.#checkedClient(options)
      : UpstashStore.#newClient(options, this.#timeoutMs)
  }

  static #checkedClient(options: UpstashStoreOptions): Redis {
    const client = options.client as Redis
    if (options.url !== undefined || options.token !== undefined) {
      throw new InvalidParameter("client", "comes without url and token (they are the client's)")
    }
    if (typeof (client as { exec?: unknown }).exec !== "function") {
      throw new InvalidParameter("client", "must be an @upstash/redis Redis (new Redis({ … }))")
    }
    // The client's HTTP half keeps the URL it sends the token to as `client.baseUrl`.
    const baseUrl = (client as unknown as { client?: { baseUrl?: unknown } }).client?.baseUrl
    if (typeof baseUrl === "string") assertTlsOffLoopback("client", baseUrl)
    // The client keeps its options as `opts` (a runtime field its types mark protected). A
    // client that parses replies as JSON would hand back "null" as null and '{"a": 1}' as an
    // object: values would not come back as written.
    const opts = (client as unknown as { opts?: { automaticDeserialization?: boolean } }).opts
    if (opts?.automaticDeserialization !== false) {
      throw new InvalidParameter(
        "client",
        "must be made with automaticDeserialization: false (the store keeps strings and must read them back unchanged)",
      )
    }
    return client
  }

  static #newClient(options: UpstashStoreOptions, timeoutMs: number): Redis {
    const { url, token } = options
    if (typeof url !== "string" || !/^https?:\/\/[^\s/?#]+/.test(url)) {
      throw new InvalidParameter("url", "must be the REST URL of the database (https://…)")
    }
    assertTlsOffLoopback("url", url)
    if (typeof token !== "string" || token.trim() === "") {
      throw new InvalidParameter("token", "must be the REST token of the database")
    }
    return new Redis({
      url,
      token,
      // Values come back as the strings they are (see #checkedClient).
      automaticDeserialization: false,
      // One attempt: a retry would spend the command's timeout; the pause handles outages.
      retry: { retries: 0 },
      // A fresh signal per request, so the request itself is cancelled at the timeout (the
      // store's own timer bounds the wait either way).
      signal: () => AbortSignal.timeout(timeoutMs),
    })
  }

  async hit(
    key: string,
    windowMs: number,
    limit: number,
    // Redis never evicts a key to make room unless the database is set to (keep eviction off,
    // as Upstash has it by default): every counter is kept alike, stranger-keyed or not.
    _options?: HitOptions,
  ): Promise<RateLimitResult> {
    assertTtl(windowMs, "windowMs")
    const window = String(Math.ceil(windowMs))
    const reply = await this.#script("hit", HIT_SCRIPT, this.#prefix + key, [window])
    if (!Array.isArray(reply) || typeof reply[0] !== "number" || typeof reply[1] !== "number") {
      throw this.#unexpected("hit")
    }
    const [count, ttl] = reply as [number, number]
    if (count <= limit) return { allowed: true, retryAfterSeconds: 0 }
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(ttl / 1000)) }
  }

  async consumeOnce(key: string, ttlMs: number): Promise<boolean> {
    assertTtl(ttlMs, "ttlMs")
    const args = ["SET", this.#prefix + key, "1", "NX", "PX", String(Math.ceil(ttlMs))]
    const reply = await this.#send("consumeOnce", args)
    // Only "OK" means "first": anything but the two known answers is an error, never a yes.
    if (reply === "OK") return true
    if (reply === null) return false
    throw this.#unexpected("consumeOnce")
  }

  async get(key: string): Promise<string | null> {
    return this.#stringOrNull("get", await this.#send("get", ["GET", this.#prefix + key]))
  }

  /** Several values in one request: a strict session read's two lookups cost one `MGET`. */
  async getMany(keys: readonly string[]): Promise<(string | null)[]> {
    if (keys.length === 0) return []
    const reply = await this.#send("getMany", ["MGET", ...keys.map((key) => this.#prefix + key)])
    if (!Array.isArray(reply) || reply.length !== keys.length) throw this.#unexpected("getMany")
    return reply.map((value) => this.#stringOrNull("getMany", value))
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    assertTtl(ttlMs, "ttlMs")
    assertStoreValue(value, this.#maxValueBytes)
    const args = ["SET", this.#prefix + key, value, "PX", String(Math.ceil(ttlMs))]
    if ((await this.#send("set", args)) !== "OK") throw this.#unexpected("set")
  }

  async delete(key: string): Promise<void> {
    await this.#send("delete", ["DEL", this.#prefix + key])
  }

  async mapSet(
    key: string,
    field: string,
    value: string,
    ttlMs: number,
    bound?: MapBound,
  ): Promise<void> {
    assertTtl(ttlMs, "ttlMs")
    assertStoreValue(value, this.#maxValueBytes)
    assertMapBound(bound)
    const args = mapSetArgs(field, value, ttlMs, Date.now(), bound)
    await this.#script("mapSet", MAP_SET_SCRIPT, this.#prefix + key, args)
  }

  async mapGet(key: string, field: string): Promise<string | null> {
    const raw = this.#stringOrNull(
      "mapGet",
      await this.#send("mapGet", ["HGET", this.#prefix + key, field]),
    )
    return raw === null ? null : liveFieldValue(raw, Date.now())
  }

  async mapGetAll(key: string): Promise<Record<string, string>> {
    const reply = await this.#send("mapGetAll", ["HGETALL", this.#prefix + key])
    // The REST API answers HGETALL as Redis's RESP2 does: a flat [field, value, …] array.
    if (!Array.isArray(reply) || reply.length % 2 !== 0) throw this.#unexpected("mapGetAll")
    const now = Date.now()
    const out: Record<string, string> = {}
    for (let i = 0; i < reply.length; i += 2) {
      const field = reply[i]
      const raw = reply[i + 1]
      if (typeof field !== "string" || typeof raw !== "string") throw this.#unexpected("mapGetAll")
      const value = liveFieldValue(raw, now)
      if (value !== null) out[field] = value
    }
    return out
  }

  async mapDelete(key: string, fields: readonly string[]): Promise<void> {
    if (fields.length === 0) return
    await this.#send("mapDelete", ["HDEL", this.#prefix + key, ...fields])
  }

  /**
   * A script by its SHA-1 (a few dozen bytes per request instead of the script), and the script
   * itself once when the database has not seen it yet (or was flushed).
   */
  async #script(operation: string, script: string, key: string, args: string[]): Promise<unknown> {
    const sha = await scriptSha1(script)
    try {
      return await this.#send(operation, ["EVALSHA", sha, "1", key, ...args])
    } catch (error) {
      if (!(error instanceof StoreError) || !String(error.cause).includes("NOSCRIPT")) throw error
      return await this.#send(operation, ["EVAL", script, "1", key, ...args])
    }
  }

  /**
   * One command, one HTTP request, under the timeout. Our timer races the client, which only
   * aborts the request itself when the store made it (an app's client has its own options).
   * Messages name the operation, never the key (it may hold an address).
   */
  async #send(operation: string, command: string[]): Promise<unknown> {
    this.#refuseWhilePaused(operation)
    let timer: ReturnType<typeof setTimeout> | undefined
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new StoreTimeout(this.#timeoutMessage(operation), { details: { operation } })),
        this.#timeoutMs,
      )
    })
    try {
      const reply = this.#client.exec(command as [string, ...string[]])
      // The loser of the race must not surface as an unhandled rejection.
      reply.catch(() => {})
      return await Promise.race([reply, deadline])
    } catch (error) {
      throw this.#failure(operation, error)
    } finally {
      clearTimeout(timer)
    }
  }

  /** After a timeout or an unreachable endpoint, the answer is known to be "no" for a while. */
  #refuseWhilePaused(operation: string): void {
    const wait = this.#pausedUntil - Date.now()
    if (wait <= 0) return
    const what =
      this.#pauseCause === "timeout"
        ? "let a command time out moments ago"
        : "could not be reached moments ago"
    throw this.#error(
      `The Redis REST endpoint ${what}; the store's ${operation} command was not sent (next try in ${wait} ms)`,
      operation,
      this.#pauseCause === "timeout" ? "paused-after-timeout" : "paused-after-failure",
    )
  }

  #failure(operation: string, error: unknown): StoreError {
    if (error instanceof StoreTimeout || isTimeout(error)) {
      this.#pause("timeout")
      return error instanceof StoreTimeout
        ? error
        : new StoreTimeout(this.#timeoutMessage(operation), {
            cause: error,
            details: { operation },
          })
    }
    if (error instanceof StoreError) return error
    if (error instanceof errors.UpstashJSONParseError) {
      // Not the REST API answering (a proxy's error page, a captive portal): down, for us.
      this.#pause("failure")
      return this.#error(
        `The Redis REST endpoint answered the store's ${operation} command with something other than JSON`,
        operation,
        "unexpected-reply",
        redacted(error),
      )
    }
    if (error instanceof errors.UpstashError && isFull(error)) {
      // Full, and not evicting to make room (as it must not): the write fails closed.
      return new StoreFull(
        `The Redis REST endpoint has no room left for the store's ${operation} write (its memory or data-size quota is full; Latchkey's state is never evicted to make room)`,
        { cause: redacted(error), details: { operation, reason: "full" } },
      )
    }
    if (error instanceof errors.UpstashError) {
      // The endpoint answered: a refused token, a script error, a full database. Not an outage.
      return this.#error(
        `The Redis REST endpoint refused the store's ${operation} command`,
        operation,
        "refused",
        redacted(error),
      )
    }
    // fetch itself failed: connection refused, DNS, TLS, network down.
    this.#pause("failure")
    return this.#error(
      `The Redis REST endpoint could not be reached for the store's ${operation} command`,
      operation,
      "unreachable",
      error,
    )
  }

  #pause(cause: "timeout" | "failure"): void {
    this.#pausedUntil = Date.now() + this.#pauseMs
    this.#pauseCause = cause
  }

  #stringOrNull(operation: string, reply: unknown): string | null {
    if (reply === null || reply === undefined) return null
    if (typeof reply === "string") return reply
    throw this.#unexpected(operation)
  }

  #unexpected(operation: string): StoreError {
    return this.#error(
      `The Redis REST endpoint gave an unexpected answer to the store's ${operation} command`,
      operation,
      "unexpected-reply",
    )
  }

  #error(message: string, operation: string, reason: FailureReason, cause?: unknown): StoreError {
    return new StoreError(message, {
      ...(cause === undefined ? {} : { cause }),
      details: { operation, reason },
    })
  }

  #timeoutMessage(operation: string): string {
    return `The Redis REST endpoint did not answer the store's ${operation} command within ${this.#timeoutMs} ms`
  }
}
