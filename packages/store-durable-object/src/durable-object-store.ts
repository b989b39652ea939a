/**
 * `Store` on Cloudflare Durable Objects: what several Workers isolates share. Each key lives in
 * exactly one object, picked by a hash of the key among `shards` objects, so every operation on
 * a key is carried out by the same object, one at a time, on strongly consistent storage (the
 * contract's atomicity per key); the shards spread the load of a busy app over several objects.
 *
 * ```ts
 * // worker entry: export the object class and bind it as LATCHKEY_STORE (wrangler config)
 * export { LatchkeyStoreObject } from "@latchkey/store-durable-object"
 * // the auth config (per request: the binding comes with the request's env)
 * store: new DurableObjectStore({ namespace: env.LATCHKEY_STORE })
 * ```
 */
import { StoreError } from "@latchkey/core/errors"
import {
  assertMapBound,
  assertStoreValue,
  assertTtl,
  type HitOptions,
  type MapBound,
  type RateLimitResult,
  type Store,
} from "@latchkey/core/store"
import type { Operation, OperationResult } from "./protocol.js"

/** The parts of a `DurableObjectNamespace` binding used here (structural). */
export interface DurableObjectNamespaceLike {
  idFromName(name: string): unknown
  get(id: never): { fetch(input: string, init?: RequestInit): Promise<Response> }
}

export interface DurableObjectStoreOptions {
  /** The binding of `LatchkeyStoreObject` (e.g. `env.LATCHKEY_STORE`). */
  namespace: DurableObjectNamespaceLike
  /**
   * How many objects the keys are spread over. Changing it moves keys to other objects (their
   * state is then forgotten), so pick it once. Default 16.
   */
  shards?: number
  /** Prefix of the objects' names: two apps on one namespace keep apart. Default `"latchkey"`. */
  name?: string
  /** Largest value `set` and `mapSet` accept, in UTF-8 bytes. Default 64 KiB. */
  maxValueBytes?: number
}

export class DurableObjectStore implements Store {
  readonly #namespace: DurableObjectNamespaceLike
  readonly #shards: number
  readonly #name: string
  readonly #maxValueBytes: number

  constructor(options: DurableObjectStoreOptions) {
    this.#namespace = options.namespace
    this.#shards = Math.max(1, Math.floor(options.shards ?? 16))
    this.#name = options.name ?? "latchkey"
    this.#maxValueBytes = options.maxValueBytes ?? 64 * 1024
  }

  // Stranger-keyed counters live in the same objects as everything else: a Durable Object's
  // storage is not bounded by a key count, so no counter is ever evicted to make room.
  hit(key: string, windowMs: number, limit: number, _options?: HitOptions) {
    assertTtl(windowMs, "windowMs")
    return this.#send(key, { op: "hit", args: [key, windowMs, limit] }) as Promise<RateLimitResult>
  }

  consumeOnce(key: string, ttlMs: number) {
    assertTtl(ttlMs, "ttlMs")
    return this.#send(key, { op: "consumeOnce", args: [key, ttlMs] }) as Promise<boolean>
  }

  get(key: string) {
    return this.#send(key, { op: "get", args: [key] }) as Promise<string | null>
  }

  /** One request per object the keys live in, in parallel. */
  async getMany(keys: readonly string[]): Promise<(string | null)[]> {
    const byShard = new Map<number, number[]>()
    keys.forEach((key, i) => {
      const shard = this.#shardOf(key)
      byShard.set(shard, [...(byShard.get(shard) ?? []), i])
    })
    const values: (string | null)[] = keys.map(() => null)
    await Promise.all(
      [...byShard].map(async ([shard, indexes]) => {
        const shardKeys = indexes.map((i) => keys[i]!)
        const got = (await this.#sendTo(shard, { op: "getMany", args: [shardKeys] })) as (
          | string
          | null
        )[]
        indexes.forEach((i, j) => {
          values[i] = got[j] ?? null
        })
      }),
    )
    return values
  }

  async set(key: string, value: string, ttlMs: number): Promise<void> {
    assertTtl(ttlMs, "ttlMs")
    assertStoreValue(value, this.#maxValueBytes)
    await this.#send(key, { op: "set", args: [key, value, ttlMs] })
  }

  async delete(key: string): Promise<void> {
    await this.#send(key, { op: "delete", args: [key] })
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
    const args: [string, string, string, number, MapBound?] = [key, field, value, ttlMs]
    if (bound) args.push({ maxFields: bound.maxFields, rank: bound.rank })
    await this.#send(key, { op: "mapSet", args })
  }

  mapGet(key: string, field: string) {
    return this.#send(key, { op: "mapGet", args: [key, field] }) as Promise<string | null>
  }

  mapGetAll(key: string) {
    return this.#send(key, { op: "mapGetAll", args: [key] }) as Promise<Record<string, string>>
  }

  async mapDelete(key: string, fields: readonly string[]): Promise<void> {
    if (fields.length === 0) return
    await this.#send(key, { op: "mapDelete", args: [key, [...fields]] })
  }

  /** Which object holds `key`: FNV-1a of its UTF-16 code units, modulo the shard count. */
  #shardOf(key: string): number {
    let hash = 0x811c9dc5
    for (let i = 0; i < key.length; i++) {
      hash ^= key.charCodeAt(i)
      hash = Math.imul(hash, 0x01000193)
    }
    return (hash >>> 0) % this.#shards
  }

  #send(key: string, op: Operation): Promise<OperationResult> {
    return this.#sendTo(this.#shardOf(key), op)
  }

  async #sendTo(shard: number, op: Operation): Promise<OperationResult> {
    const stub = this.#namespace.get(this.#namespace.idFromName(`${this.#name}:${shard}`) as never)
    let response: Response
    try {
      response = await stub.fetch("https://latchkey-store/op", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(op),
      })
    } catch (thrown) {
      // Durable Object errors carry no secrets, but the key may: name the operation only.
      const name = thrown instanceof Error ? thrown.name : "Error"
      throw new StoreError(`The Durable Object store could not run ${op.op} (${name})`)
    }
    if (!response.ok) {
      throw new StoreError(
        `The Durable Object store answered ${response.status} to ${op.op}: is the binding LatchkeyStoreObject?`,
      )
    }
    return ((await response.json()) as { result: OperationResult }).result
  }
}
