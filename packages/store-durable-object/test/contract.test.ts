/**
 * The shared Store contract against `DurableObjectStore` and `LatchkeyStoreObject` running in
 * real workerd (`wrangler dev`, from the runtime tools of e2e/runtime-tools, local Durable
 * Objects on SQLite storage). The worker runs one store method per request; `WorkerStore`
 * below is the test's side of that loopback bridge and nothing more: every answer comes from
 * the object in workerd.
 */

import { fileURLToPath } from "node:url"
import { InvalidParameter, StoreError } from "@latchkey/core/errors"
import type { MapBound, RateLimitResult, Store } from "@latchkey/core/store"
import { runStoreContract, withinTtl } from "@latchkey/store-test"
import { afterAll, describe, expect, it } from "vitest"
import { builtPackages, startWorker } from "../../../e2e/wrangler-dev.js"
import { sharedStoreScenarios } from "../../core/test/two-factor/shared-store.js"

/** The test process's side of the bridge: each call is one request to the worker. */
class WorkerStore implements Store {
  constructor(
    readonly url: string,
    readonly name: string,
  ) {}

  async #call(method: string, args: unknown[]): Promise<unknown> {
    const response = await fetch(this.url, {
      method: "POST",
      body: JSON.stringify({ name: this.name, method, args }),
    })
    const body = (await response.json()) as {
      result?: unknown
      error?: { type?: string; message?: string; parameter?: string }
    }
    if (!body.error) return body.result
    if (body.error.type === "InvalidParameter")
      throw new InvalidParameter(body.error.parameter ?? "?", `(in workerd) ${body.error.message}`)
    throw new StoreError(`${body.error.type}: ${body.error.message}`)
  }

  hit(key: string, windowMs: number, limit: number) {
    return this.#call("hit", [key, windowMs, limit]) as Promise<RateLimitResult>
  }
  consumeOnce(key: string, ttlMs: number) {
    return this.#call("consumeOnce", [key, ttlMs]) as Promise<boolean>
  }
  get(key: string) {
    return this.#call("get", [key]) as Promise<string | null>
  }
  getMany(keys: readonly string[]) {
    return this.#call("getMany", [keys]) as Promise<(string | null)[]>
  }
  async set(key: string, value: string, ttlMs: number) {
    await this.#call("set", [key, value, ttlMs])
  }
  async delete(key: string) {
    await this.#call("delete", [key])
  }
  async mapSet(key: string, field: string, value: string, ttlMs: number, bound?: MapBound) {
    await this.#call(
      "mapSet",
      bound ? [key, field, value, ttlMs, bound] : [key, field, value, ttlMs],
    )
  }
  mapGet(key: string, field: string) {
    return this.#call("mapGet", [key, field]) as Promise<string | null>
  }
  mapGetAll(key: string) {
    return this.#call("mapGetAll", [key]) as Promise<Record<string, string>>
  }
  async mapDelete(key: string, fields: readonly string[]) {
    await this.#call("mapDelete", [key, fields])
  }
}

// One worker for every suite of this file, started before any of them.
if (!builtPackages("core")) {
  describe.skip("DurableObjectStore in workerd (build core first: the worker bundles dist/)", () => {
    it("needs npm run build", () => {})
  })
} else {
  const workerDir = fileURLToPath(new URL("./worker/", import.meta.url))
  const worker = await startWorker(workerDir, ["wrangler.jsonc"])
  afterAll(() => worker.stop())
  // Each store its own objects (its own name), as two apps on one namespace are.
  const workerStore = () => new WorkerStore(worker.url, `test-${crypto.randomUUID()}`)

  // Each call crosses a loopback bridge into workerd: expiry cases start at a TTL that two such
  // calls seldom outlast (a run that does runs again with twice it, `withinTtl`).
  runStoreContract({
    name: "durable object (workerd, wrangler dev)",
    store: workerStore,
    shortTtlMs: 1500,
  })

  // Two `Auth()` instances (in this process) whose shared state is the object in workerd: a TOTP
  // code accepted once across both, the attempt limit counted across both.
  sharedStoreScenarios("DurableObjectStore (workerd)", workerStore)

  describe("DurableObjectStore in workerd", () => {
    it("getMany reads keys that live in different objects, in order", async () => {
      const store = workerStore()
      const keys = Array.from({ length: 12 }, (_, i) => `many:${i}:${crypto.randomUUID()}`)
      for (const [i, key] of keys.entries()) if (i % 3 !== 0) await store.set(key, `v${i}`, 60_000)
      expect(await store.getMany(keys)).toEqual(keys.map((_, i) => (i % 3 === 0 ? null : `v${i}`)))
    })

    it("a bounded map keeps the highest ranks, and each field expires on its own", async () => {
      const store = workerStore()
      const key = `bounded:${crypto.randomUUID()}`
      for (const rank of [5, 1, 9, 3])
        await store.mapSet(key, `f${rank}`, `v${rank}`, 60_000, { maxFields: 3, rank })
      expect(Object.keys(await store.mapGetAll(key)).sort()).toEqual(["f3", "f5", "f9"])
      // The read-back must land inside the short TTL: a run whose two round trips through
      // wrangler dev outlast it (a loaded machine) runs again with twice the TTL.
      const { ttlMs, result } = await withinTtl(1500, async (ttl) => {
        await store.mapSet(key, "short", "s", ttl)
        return await store.mapGet(key, "short")
      })
      expect(result).toBe("s")
      await new Promise((r) => setTimeout(r, 2 * ttlMs))
      expect(await store.mapGet(key, "short")).toBeNull()
      expect(await store.mapGet(key, "f9")).toBe("v9")
    })
  })
}
