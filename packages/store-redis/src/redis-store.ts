/**
 * `RedisStore`: the Latchkey store on Redis, shared by every instance of an app.
 *
 * - Atomic: `hit` is one Lua script (count + window expiry), `consumeOnce` is `SET NX PX`,
 *   `set` is `SET PX` (on a cluster, a script each): one command, no read-modify-write race.
 * - Every key is under `prefix` and has a TTL; values are bounded (`maxValueBytes`).
 * - Every command has a timeout (`commandTimeoutMs`): a dead or slow server is a
 *   `StoreTimeout` (or `StoreError` when the client refuses at once), never a hang. The core
 *   decides what a failure means: rate limits on sign-in fail closed by default.
 * - An outage costs milliseconds, not the timeout, per request: while the client says it is
 *   not connected (node-redis reconnecting) no command is sent, and after a timeout (a server
 *   that stopped answering on an open connection) commands fail at once for
 *   `pauseAfterTimeoutMs`, then one tries again.
 * - Nothing is evicted: the server must run `maxmemory-policy noeviction` (or no `maxmemory`);
 *   every key of ours has a TTL, so `volatile-*` policies would evict them as `allkeys-*` do.
 *   The store checks once before its first command and refuses an evicting server; a full
 *   server's `OOM` refusal becomes `StoreFull`.
 * - Maps carry per-field expiry and a rank in each field (`scripts.ts`), for Redis 7.0.
 * - Redis Cluster (a `createCluster()` client, `cluster.ts`): every script on one key,
 *   `getMany` one `MGET` per slot, `consumeOnce`/`set` confirmed on a replica (`WAIT 1`, on a
 *   connection of the store's own so a slow replica holds up nothing else) so a failover
 *   cannot forget a marker already answered for, a timeout pauses only the node that timed
 *   out, and a frozen or dead master is left behind once its replica is promoted.
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
  ClusterTransport,
  groupBySlot,
  isClusterClient,
  type RedisClusterCommandClient,
  type RedisCommandClient,
  singleNode,
  type Transport,
} from "./cluster.js"
import { within } from "./deadline.js"
import {
  CONSUME_ONCE_SCRIPT,
  HIT_SCRIPT,
  liveFieldValue,
  MAP_SET_SCRIPT,
  mapSetArgs,
  SET_SCRIPT,
  scriptSha1,
} from "./scripts.js"

export type { RedisClusterCommandClient, RedisCommandClient }

export interface RedisStoreOptions {
  /**
   * A connected node-redis client the app already made (and closes): `createClient()`, or
   * `createCluster()` for Redis Cluster.
   */
  client: RedisCommandClient | RedisClusterCommandClient
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
  /**
   * Before its first command the store asks the server (`CONFIG GET`) whether it evicts keys
   * when full, and refuses to run (`StoreError`, `reason: "evicting-policy"`) if it does: an
   * evicted single-use marker lets a used link or code work again. Default `true`. A server
   * that does not allow `CONFIG` (most managed services) passes unchecked; set `false` only for
   * a server whose memory you know cannot fill up.
   */
  checkEvictionPolicy?: boolean
  /**
   * Redis Cluster only: how long a write of security state (`consumeOnce`, `set`) waits for a
   * replica to confirm it (`WAIT 1`), so a failover cannot lose a marker that was already
   * answered for. A master with no replica connected is not waited on. The writes that arrive
   * while one `WAIT` is pending share the next, so such a write is answered within
   * `commandTimeoutMs` plus twice this. Default: half of `commandTimeoutMs`.
   */
  replicaConfirmMs?: number
  /**
   * Redis Cluster only: after a command to a master times out or finds its connection down,
   * how long the store watches the slot map for its replica's promotion (and then sends
   * through a client that knows it). Default 30 s.
   */
  clusterRecoveryMs?: number
}

/** The reasons a server's settings let it evict our keys (see `checkEvictionPolicy`). */
function evictionRisk(policy: string | undefined, maxmemory: string | undefined) {
  if (policy === undefined || policy === "noeviction") return undefined
  // maxmemory 0 (the default on 64-bit) means no limit: nothing is ever evicted.
  if (maxmemory !== undefined && Number(maxmemory) === 0) return undefined
  return policy
}

/** The value of a `CONFIG GET` reply (a flat array in RESP2, a map in RESP3). */
function configValue(reply: unknown, name: string): string | undefined {
  if (Array.isArray(reply)) {
    for (let i = 0; i + 1 < reply.length; i += 2) {
      if (String(reply[i]) === name) return String(reply[i + 1])
    }
    return undefined
  }
  if (reply instanceof Map) return reply.has(name) ? String(reply.get(name)) : undefined
  if (reply && typeof reply === "object" && name in reply) {
    return String((reply as Record<string, unknown>)[name])
  }
  return undefined
}

/**
 * A command that got no answer in time: ours, a `DOMException` from `AbortSignal.timeout`, or
 * node-redis's own `TimeoutError` (whose `name` stays "Error": its class names it).
 */
const isTimeout = (error: unknown) =>
  error instanceof Error &&
  (error.name.endsWith("TimeoutError") || error.constructor.name === "TimeoutError")

/** Redis's answer to a write when `maxmemory` is reached under `noeviction`. */
const isOutOfMemory = (error: unknown) => String(error).includes("OOM command not allowed")

const toValue = (reply: unknown) => (reply === null || reply === undefined ? null : String(reply))

/** A map reply as pairs: node-redis answers HGETALL with a flat array (RESP2) or a map (RESP3). */
function entriesOf(reply: unknown): [string, string][] {
  if (Array.isArray(reply)) {
    const out: [string, string][] = []
    for (let i = 0; i + 1 < reply.length; i += 2) out.push([String(reply[i]), String(reply[i + 1])])
    return out
  }
  if (reply instanceof Map) return [...reply].map(([k, v]) => [String(k), String(v)])
  if (reply && typeof reply === "object") {
    return Object.entries(reply).map(([k, v]) => [k, String(v)])
  }
  return []
}

export class RedisStore implements Store {
  readonly #client: Transport
  /** The same transport when it is a cluster's: replica-confirmed writes go through it. */
  readonly #cluster: ClusterTransport | undefined
  readonly #prefix: string
  readonly #timeoutMs: number
  readonly #maxValueBytes: number
  readonly #pauseMs: number
  readonly #checkEviction: boolean
  readonly #replicaConfirmMs: number
  /** Until when (epoch ms) commands are not sent to a node ("" on a single node), after a timeout. */
  readonly #pausedUntil = new Map<string, number>()
  /** The eviction-policy check, once per store (retried if it could not get an answer). */
  #policyCheck: Promise<void> | undefined

  constructor(options: RedisStoreOptions) {
    if (!options?.client || typeof options.client.sendCommand !== "function") {
      throw new InvalidParameter("client", "must be a node-redis client (createClient())")
    }
    this.#prefix = options.prefix ?? "latchkey:"
    this.#timeoutMs = options.commandTimeoutMs ?? 500
    this.#maxValueBytes = options.maxValueBytes ?? 64 * 1024
    this.#pauseMs = options.pauseAfterTimeoutMs ?? 1000
    this.#checkEviction = options.checkEvictionPolicy ?? true
    assertTtl(this.#timeoutMs, "commandTimeoutMs")
    assertTtl(this.#pauseMs, "pauseAfterTimeoutMs")
    this.#replicaConfirmMs = Math.max(
      1,
      Math.floor(options.replicaConfirmMs ?? this.#timeoutMs / 2),
    )
    this.#cluster = isClusterClient(options.client)
      ? new ClusterTransport(options.client, {
          connectTimeoutMs: Math.max(1000, this.#timeoutMs * 2),
          recoveryMs: options.clusterRecoveryMs ?? 30_000,
          commandTimeoutMs: this.#timeoutMs,
          replicaConfirmMs: this.#replicaConfirmMs,
        })
      : undefined
    this.#client = this.#cluster ?? singleNode(options.client as RedisCommandClient)
  }

  /**
   * Ends what the store itself started: on Redis Cluster, its connections for replica-confirmed
   * writes and the replacement client it may have built to get away from a failed master. The
   * app's own client is the app's to close.
   */
  close(): void {
    this.#client.close()
  }

  /**
   * `options.strangerKeyed` changes nothing here: Redis never evicts one of our keys by itself
   * (the eviction-policy check refuses a server that would), so every counter is kept to the
   * end of its window; a full server refuses the write (`StoreFull`) instead.
   */
  async hit(
    key: string,
    windowMs: number,
    limit: number,
    _options?: HitOptions,
  ): Promise<RateLimitResult> {
    assertTtl(windowMs, "windowMs")
    const window = String(Math.ceil(windowMs))
    const reply = await this.#script("hit", HIT_SCRIPT, this.#prefix + key, [window])
    const [count, ttl] = reply as [number, number]
    if (count <= limit) return { allowed: true, retryAfterSeconds: 0 }
    return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(Number(ttl) / 1000)) }
  }

  async consumeOnce(key: string, ttlMs: number): Promise<boolean> {
    assertTtl(ttlMs, "ttlMs")
    const fullKey = this.#prefix + key
    const ttl = String(Math.ceil(ttlMs))
    if (this.#cluster) {
      // A first use on a master with a replica connected waits for the replica; a repeat is
      // refused at once.
      const needsConfirm = (reply: unknown) => {
        const [first, replicas] = reply as [number, number]
        return first === 1 && replicas > 0
      }
      const script = CONSUME_ONCE_SCRIPT
      const reply = await this.#confirmedScript("consumeOnce", script, fullKey, [ttl], needsConfirm)
      return (reply as [number, number])[0] === 1
    }
    const args = ["SET", fullKey, "1", "NX", "PX", ttl]
    return (await this.#send("consumeOnce", fullKey, false, args)) !== null
  }

  async get(key: string): Promise<string | null> {
    const fullKey = this.#prefix + key
    return toValue(await this.#send("get", fullKey, true, ["GET", fullKey]))
  }

  /**
   * Several values in one command: a strict session read's two keys cost one `MGET` (one
   * timer, one reply) rather than two `GET`s. Measured against one `EVALSHA` of a script doing
   * the two `GET`s: that was no faster than the two pipelined `GET`s, `MGET` was.
   */
  async getMany(keys: readonly string[]): Promise<(string | null)[]> {
    if (keys.length === 0) return []
    const fullKeys = keys.map((key) => this.#prefix + key)
    if (!this.#client.cluster) {
      const reply = await this.#send("getMany", fullKeys[0], true, ["MGET", ...fullKeys])
      const values = Array.isArray(reply) ? reply : []
      return keys.map((_, i) => toValue(values[i]))
    }
    // Redis Cluster: MGET only reads keys of one slot. One MGET per slot, side by side.
    const out: (string | null)[] = keys.map(() => null)
    await Promise.all(
      groupBySlot(fullKeys).map(async (group) => {
        const args = ["MGET", ...group.map((i) => fullKeys[i]!)]
        const reply = await this.#send("getMany", fullKeys[group[0]!], true, args)
        const values = Array.isArray(reply) ? reply : []
        group.forEach((index, j) => {
          out[index] = toValue(values[j])
        })
      }),
    )
    return out
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    assertTtl(ttlMs, "ttlMs")
    assertStoreValue(value, this.#maxValueBytes)
    const fullKey = this.#prefix + key
    const ttl = String(Math.ceil(ttlMs))
    if (this.#cluster) {
      const needsConfirm = (replicas: unknown) => Number(replicas) > 0
      await this.#confirmedScript("set", SET_SCRIPT, fullKey, [value, ttl], needsConfirm)
      return
    }
    await this.#send("set", fullKey, false, ["SET", fullKey, value, "PX", ttl])
  }

  /**
   * Redis Cluster: a write answered for must survive a failover. Replication is asynchronous,
   * so a master killed right after a `SET NX` could hand its slots to a replica that never saw
   * it, and the same code would be accepted twice. The write goes on the store's own
   * connection to the key's master, and `WAIT 1` there holds the answer until one replica has
   * it (`replica-confirm.ts`); none in time is a `StoreError` (fail closed: the write stays).
   * A master with no replica connected has no one to fail over to, and is not waited on.
   */
  async #confirmedScript(
    operation: string,
    script: string,
    key: string,
    argv: string[],
    needsConfirm: (reply: unknown) => boolean,
  ): Promise<unknown> {
    // The write and its WAIT together may take a WAIT ahead of them, theirs, and a command's time.
    const limitMs = this.#timeoutMs + 2 * this.#replicaConfirmMs
    const send = (args: string[]) =>
      this.#run(operation, key, limitMs, () =>
        this.#cluster!.sendConfirmed(key, args, needsConfirm, Date.now() + limitMs),
      )
    const { reply, acked } = (await this.#script(operation, script, key, argv, send)) as {
      reply: unknown
      acked?: number
    }
    if (acked === undefined || acked >= 1) return reply
    throw new StoreError(
      `Redis Cluster did not confirm the store's ${operation} write on a replica within ${this.#replicaConfirmMs} ms; it is not counted as done`,
      { details: { operation, reason: "not-replicated" } },
    )
  }

  async delete(key: string): Promise<void> {
    const fullKey = this.#prefix + key
    await this.#send("delete", fullKey, false, ["DEL", fullKey])
  }

  /**
   * One script (`MAP_SET_SCRIPT`): the field with its own expiry (`encodeField`), the map's
   * expiry grown to cover it, and with `bound` the expired then lowest-ranked fields removed
   * until at most `maxFields` remain — scanning only when the map is over the bound.
   */
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
    const fullKey = this.#prefix + key
    const raw = toValue(await this.#send("mapGet", fullKey, true, ["HGET", fullKey, field]))
    return raw === null ? null : liveFieldValue(raw, Date.now())
  }

  async mapGetAll(key: string): Promise<Record<string, string>> {
    const fullKey = this.#prefix + key
    const reply = await this.#send("mapGetAll", fullKey, true, ["HGETALL", fullKey])
    const now = Date.now()
    const out: Record<string, string> = {}
    for (const [field, raw] of entriesOf(reply)) {
      const value = liveFieldValue(raw, now)
      if (value !== null) out[field] = value
    }
    return out
  }

  async mapDelete(key: string, fields: readonly string[]): Promise<void> {
    if (fields.length === 0) return
    const fullKey = this.#prefix + key
    await this.#send("mapDelete", fullKey, false, ["HDEL", fullKey, ...fields])
  }

  /**
   * A script on one key by its SHA-1 (`EVALSHA`), sent whole once (`EVAL`) when the server has
   * not seen it yet or restarted (`NOSCRIPT`). `send` is how: through the app's client by
   * default, or as a replica-confirmed write.
   */
  async #script(
    operation: string,
    script: string,
    key: string,
    argv: string[],
    send = (args: string[]) => this.#send(operation, key, false, args),
  ) {
    const sha = await scriptSha1(script)
    try {
      return await send(["EVALSHA", sha, "1", key, ...argv])
    } catch (error) {
      if (!(error instanceof StoreError) || !String(error.cause).includes("NOSCRIPT")) throw error
      return await send(["EVAL", script, "1", key, ...argv])
    }
  }

  /** One command through the app's client, under the command timeout. */
  #send(operation: string, firstKey: string | undefined, readonly: boolean, args: string[]) {
    return this.#run(operation, firstKey, this.#timeoutMs, () =>
      this.#client.send(firstKey, readonly, args, this.#timeoutMs),
    )
  }

  /**
   * `command` for the key's node, unless it is known to be down; after the eviction-policy
   * check; under `limitMs`. Messages name the operation, never the key (it may hold an address).
   */
  async #run(
    operation: string,
    firstKey: string | undefined,
    limitMs: number,
    command: () => Promise<unknown>,
  ): Promise<unknown> {
    const node = this.#client.nodeOf(firstKey)
    this.#refuseWhileDown(operation, node)
    if (this.#checkEviction) {
      this.#policyCheck ??= this.#checkPolicy().catch((error) => {
        // No answer (the server is down or slow): ask again with the next command.
        this.#policyCheck = undefined
        throw error
      })
      try {
        await this.#policyCheck
      } catch (error) {
        // Name the operation that waited, as its own timeout would have.
        if (!(error instanceof StoreTimeout)) throw error
        throw new StoreTimeout(this.#timeoutMessage(operation, this.#timeoutMs), {
          details: { operation },
        })
      }
    }
    return await this.#timed(operation, node, limitMs, command)
  }

  /**
   * The command raced against a timer of ours (the client's own timeout is asked for too, but
   * a client may hold commands in its offline queue while it reconnects). A timeout pauses the
   * node and has the transport watch it; any other failure without Redis's answer, the
   * transport checks (a lost connection is watched too).
   */
  async #timed(
    operation: string,
    node: string,
    limitMs: number,
    command: () => Promise<unknown>,
  ): Promise<unknown> {
    const timeout = () =>
      new StoreTimeout(this.#timeoutMessage(operation, limitMs), { details: { operation } })
    try {
      return await within(command(), limitMs, timeout)
    } catch (error) {
      const failure = this.#failure(operation, error, limitMs)
      if (failure instanceof StoreTimeout) {
        this.#pausedUntil.set(node, Date.now() + this.#pauseMs)
        this.#client.timedOut(node)
      } else {
        this.#client.failed(node)
      }
      throw failure
    }
  }

  /**
   * Refuses a server that evicts keys when its memory is full (any `maxmemory-policy` but
   * `noeviction`, with a `maxmemory` set): every key of ours has a TTL, so `volatile-*`
   * policies evict them as readily as `allkeys-*` ones, and an evicted single-use marker lets
   * a used link or code work again. A server that refuses `CONFIG` cannot be checked.
   */
  async #checkPolicy(): Promise<void> {
    const ask = async (name: string) => {
      try {
        const args = ["CONFIG", "GET", name]
        const command = () => this.#client.send(undefined, true, args, this.#timeoutMs)
        return configValue(await this.#timed("configCheck", "", this.#timeoutMs, command), name)
      } catch (error) {
        if (error instanceof StoreTimeout) throw error
        return undefined // CONFIG renamed or not allowed (managed services): cannot check.
      }
    }
    const [policy, maxmemory] = await Promise.all([ask("maxmemory-policy"), ask("maxmemory")])
    const risk = evictionRisk(policy, maxmemory)
    if (risk === undefined) return
    const refusal = new StoreError(
      `Redis evicts keys when its memory is full (maxmemory-policy ${risk}): it could evict Latchkey's single-use markers and revocation state, letting a used link or code work again. Set maxmemory-policy to noeviction on this server (or give Latchkey a server of its own), or pass checkEvictionPolicy: false if its memory cannot fill up`,
      { details: { operation: "configCheck", reason: "evicting-policy", policy: risk } },
    )
    this.#policyCheck = Promise.reject(refusal)
    this.#policyCheck.catch(() => {})
    throw refusal
  }

  /**
   * Fail fast when the answer is known to be "no": the client is not connected (it would
   * queue the command until the timeout), or the server just let a command time out.
   */
  #refuseWhileDown(operation: string, node: string): void {
    if (this.#client.isReady === false) {
      throw new StoreError(
        `Redis is not connected (the client is reconnecting); the store's ${operation} command was not sent`,
        { details: { operation, reason: "disconnected" } },
      )
    }
    const wait = (this.#pausedUntil.get(node) ?? 0) - Date.now()
    if (wait > 0) {
      throw new StoreError(
        `Redis let a command time out moments ago; the store's ${operation} command was not sent (next try in ${wait} ms)`,
        { details: { operation, reason: "paused-after-timeout" } },
      )
    }
  }

  #failure(operation: string, error: unknown, limitMs: number): StoreError {
    if (error instanceof StoreError) return error
    if (isTimeout(error)) {
      return new StoreTimeout(this.#timeoutMessage(operation, limitMs), {
        cause: error,
        details: { operation },
      })
    }
    if (isOutOfMemory(error)) {
      return new StoreFull(
        `Redis is out of memory (maxmemory reached) and refused the store's ${operation} command; raise maxmemory or free room on the server`,
        { cause: error, details: { operation } },
      )
    }
    return new StoreError(`Redis refused the store's ${operation} command`, {
      cause: error,
      details: { operation },
    })
  }

  #timeoutMessage(operation: string, ms: number): string {
    return `Redis did not answer the store's ${operation} command within ${ms} ms`
  }
}
