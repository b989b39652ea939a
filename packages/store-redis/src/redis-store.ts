/**
 * `RedisStore`: the Latchkey store on Redis, shared by every instance of an app.
 *
 * - Atomic: `hit` is one Lua script (count + window expiry), `consumeOnce` is `SET NX PX`,
 *   `set` is `SET PX`: each is a single command, so there is no read-modify-write race.
 * - Every key is under `prefix` and has a TTL; values are bounded (`maxValueBytes`).
 * - Every command has a timeout (`commandTimeoutMs`): a dead or slow server is a
 *   `StoreTimeout` (or `StoreError` when the client refuses at once), never a hang. The core
 *   decides what a failure means: rate limits on sign-in fail closed by default.
 * - An outage costs milliseconds, not the timeout, per request: while the client says it is
 *   not connected (node-redis reconnecting) no command is sent, and after a timeout (a server
 *   that stopped answering on an open connection) commands fail at once for
 *   `pauseAfterTimeoutMs`, then one tries again.
 */
import { InvalidParameter, StoreError, StoreTimeout } from "@latchkey/core/errors"
import { assertStoreValue, assertTtl, type RateLimitResult, type Store } from "@latchkey/core/store"
import { HIT_SCRIPT, hitScriptSha1, MAP_SET_SCRIPT } from "./scripts.js"

/**
 * What the store needs of a Redis client: node-redis's `sendCommand` (a client from
 * `createClient()` of `redis` or `@redis/client`, v5 or later, connected by the app).
 */
export interface RedisCommandClient {
  sendCommand(args: readonly string[], options?: { timeout?: number }): Promise<unknown>
  /**
   * node-redis: `false` while the connection is down (before `connect()`, or reconnecting).
   * A command sent then would wait in the client's offline queue until the timeout.
   */
  readonly isReady?: boolean
}

export interface RedisStoreOptions {
  /** A connected node-redis client the app already made (and closes). */
  client: RedisCommandClient
  /** Prefix of every key. Default `"latchkey:"`. Give each app sharing a server its own. */
  prefix?: string
  /** Longest wait for one command, in milliseconds. Default 500. */
  commandTimeoutMs?: number
  /** Largest value `set` accepts, in UTF-8 bytes. Default 64 KiB. */
  maxValueBytes?: number
  /**
   * After a command times out, how long further commands fail at once (`StoreError`) instead
   * of each waiting `commandTimeoutMs` on a server that stopped answering. Default 1000 ms.
   */
  pauseAfterTimeoutMs?: number
}

const isTimeout = (error: unknown) =>
  error instanceof Error && (error.name === "TimeoutError" || error.name.endsWith("TimeoutError"))

export class RedisStore implements Store {
  readonly #client: RedisCommandClient
  readonly #prefix: string
  readonly #timeoutMs: number
  readonly #maxValueBytes: number
  readonly #pauseMs: number
  /** Until when (epoch ms) commands are not sent, after a timeout. */
  #pausedUntil = 0

  constructor(options: RedisStoreOptions) {
    if (!options?.client || typeof options.client.sendCommand !== "function") {
      throw new InvalidParameter("client", "must be a node-redis client (createClient())")
    }
    this.#client = options.client
    this.#prefix = options.prefix ?? "latchkey:"
    this.#timeoutMs = options.commandTimeoutMs ?? 500
    this.#maxValueBytes = options.maxValueBytes ?? 64 * 1024
    this.#pauseMs = options.pauseAfterTimeoutMs ?? 1000
    assertTtl(this.#timeoutMs, "commandTimeoutMs")
    assertTtl(this.#pauseMs, "pauseAfterTimeoutMs")
  }

  async hit(key: string, windowMs: number, limit: number): Promise<RateLimitResult> {
    assertTtl(windowMs, "windowMs")
    const window = String(Math.ceil(windowMs))
    const fullKey = this.#prefix + key
    const sha = await hitScriptSha1()
    let reply: unknown
    try {
      reply = await this.#send("hit", ["EVALSHA", sha, "1", fullKey, window])
    } catch (error) {
      // A server that has not seen the script yet (or restarted): send it whole once.
      if (!(error instanceof StoreError) || !String(error.cause).includes("NOSCRIPT")) throw error
      reply = await this.#send("hit", ["EVAL", HIT_SCRIPT, "1", fullKey, window])
    }
    const [count, ttl] = reply as [number, number]
    if (count <= limit) return { allowed: true, retryAfterSeconds: 0 }
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(Number(ttl) / 1000)) }
  }

  async consumeOnce(key: string, ttlMs: number): Promise<boolean> {
    assertTtl(ttlMs, "ttlMs")
    const args = ["SET", this.#prefix + key, "1", "NX", "PX", String(Math.ceil(ttlMs))]
    return (await this.#send("consumeOnce", args)) !== null
  }

  async get(key: string): Promise<string | null> {
    const reply = await this.#send("get", ["GET", this.#prefix + key])
    return reply === null || reply === undefined ? null : String(reply)
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    assertTtl(ttlMs, "ttlMs")
    assertStoreValue(value, this.#maxValueBytes)
    await this.#send("set", ["SET", this.#prefix + key, value, "PX", String(Math.ceil(ttlMs))])
  }

  async delete(key: string): Promise<void> {
    await this.#send("delete", ["DEL", this.#prefix + key])
  }

  async mapSet(key: string, field: string, value: string, ttlMs: number): Promise<void> {
    assertTtl(ttlMs, "ttlMs")
    assertStoreValue(value, this.#maxValueBytes)
    // A small script sent whole each time: map writes happen at sign-in, not per request.
    const ttl = String(Math.ceil(ttlMs))
    await this.#send("mapSet", ["EVAL", MAP_SET_SCRIPT, "1", this.#prefix + key, field, value, ttl])
  }

  async mapGetAll(key: string): Promise<Record<string, string>> {
    const reply = await this.#send("mapGetAll", ["HGETALL", this.#prefix + key])
    // node-redis answers HGETALL with a flat array (RESP2) or an object/Map (RESP3).
    if (Array.isArray(reply)) {
      const out: Record<string, string> = {}
      for (let i = 0; i + 1 < reply.length; i += 2) out[String(reply[i])] = String(reply[i + 1])
      return out
    }
    if (reply instanceof Map) {
      return Object.fromEntries([...reply].map(([k, v]) => [String(k), String(v)]))
    }
    if (reply && typeof reply === "object") {
      return Object.fromEntries(Object.entries(reply).map(([k, v]) => [k, String(v)]))
    }
    return {}
  }

  async mapDelete(key: string, fields: readonly string[]): Promise<void> {
    if (fields.length === 0) return
    await this.#send("mapDelete", ["HDEL", this.#prefix + key, ...fields])
  }

  /**
   * One command under the timeout. The client's own timeout is asked for, and a timer of
   * ours races it, because a client may hold commands in its offline queue while it
   * reconnects. Messages name the operation, never the key (it may hold an address).
   */
  async #send(operation: string, args: string[]): Promise<unknown> {
    this.#refuseWhileDown(operation)
    let timer: ReturnType<typeof setTimeout> | undefined
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(
        () => reject(new StoreTimeout(this.#timeoutMessage(operation), { details: { operation } })),
        this.#timeoutMs,
      )
    })
    try {
      const command = this.#client.sendCommand(args, { timeout: this.#timeoutMs })
      // The loser of the race must not surface as an unhandled rejection.
      command.catch(() => {})
      return await Promise.race([command, deadline])
    } catch (error) {
      const failure = this.#failure(operation, error)
      if (failure instanceof StoreTimeout) this.#pausedUntil = Date.now() + this.#pauseMs
      throw failure
    } finally {
      clearTimeout(timer)
    }
  }

  /**
   * Fail fast when the answer is known to be "no": the client is not connected (it would
   * queue the command until the timeout), or the server just let a command time out.
   */
  #refuseWhileDown(operation: string): void {
    if (this.#client.isReady === false) {
      throw new StoreError(
        `Redis is not connected (the client is reconnecting); the store's ${operation} command was not sent`,
        { details: { operation, reason: "disconnected" } },
      )
    }
    const wait = this.#pausedUntil - Date.now()
    if (wait > 0) {
      throw new StoreError(
        `Redis let a command time out moments ago; the store's ${operation} command was not sent (next try in ${wait} ms)`,
        { details: { operation, reason: "paused-after-timeout" } },
      )
    }
  }

  #failure(operation: string, error: unknown): StoreError {
    if (error instanceof StoreError) return error
    if (isTimeout(error)) {
      return new StoreTimeout(this.#timeoutMessage(operation), {
        cause: error,
        details: { operation },
      })
    }
    return new StoreError(`Redis refused the store's ${operation} command`, {
      cause: error,
      details: { operation },
    })
  }

  #timeoutMessage(operation: string): string {
    return `Redis did not answer the store's ${operation} command within ${this.#timeoutMs} ms`
  }
}
