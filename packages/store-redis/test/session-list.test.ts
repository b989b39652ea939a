/**
 * The per-user session list in Redis (REDIS_URL; skipped when unset): concurrent sign-ins all
 * listed, and one user signed in 10,000 times keeps a bounded hash (the scenario prints the
 * cost of the first and last 1,000 sign-ins). After every map write of the scenarios the hash
 * is measured on the server itself: HLEN (expired fields included) never over the bound.
 */

import type { MapBound } from "@latchkey/core/store"
import { afterAll, describe, expect, it } from "vitest"
import { sessionListScenarios } from "../../core/test/account/session-list-scenarios.js"
import { RedisStore } from "../src/index.js"
import { connect, REDIS_URL, uniquePrefix } from "./helpers.js"

if (REDIS_URL) {
  const client = await connect(REDIS_URL)
  afterAll(() => client.close())
  let writes = 0
  let largest = 0
  /** The store, measuring the hash on the server after each write (HLEN). */
  class MeasuredStore extends RedisStore {
    constructor(readonly prefix: string) {
      // 10,000 sign-ins on a busy CI machine can hold one reply past the default 1 s; this
      // file is about the bound, not timeouts (outage.test.ts covers those).
      super({ client, prefix, commandTimeoutMs: 10_000 })
    }
    override async mapSet(key: string, field: string, value: string, ttl: number, b?: MapBound) {
      await super.mapSet(key, field, value, ttl, b)
      writes++
      largest = Math.max(largest, await client.hLen(this.prefix + key))
    }
  }
  sessionListScenarios({
    name: "Redis store",
    store: () => new MeasuredStore(uniquePrefix("sessions")),
  })
  describe("per-user session list in Redis: the hashes themselves", () => {
    it("no session hash ever held more than the default bound of 50 fields (HLEN after each write)", () => {
      expect(writes).toBeGreaterThan(10_000)
      expect(largest).toBe(50)
    })
  })
} else {
  describe.skip("per-user session list in Redis (set REDIS_URL)", () => {
    it("needs REDIS_URL", () => {})
  })
}
