/// <reference path="../../core/test/oauth/harness/oidc-provider.d.ts" />
/**
 * Provider token refresh with its lock and grace window in Redis (REDIS_URL; skipped when unset):
 * the core's refresh scenarios against the real OpenID Provider, with a RedisStore under its
 * own key prefix per test in place of the memory store.
 */
import { MemoryAdapter } from "@latchkey/core/adapters/memory"
import { afterAll, describe, it } from "vitest"
import { refreshScenarios } from "../../core/test/refresh/scenarios.js"
import { RedisStore } from "../src/index.js"
import { connect, REDIS_URL, uniquePrefix } from "./helpers.js"

if (REDIS_URL) {
  const client = await connect(REDIS_URL)
  afterAll(() => client.close())
  const store = () => new RedisStore({ client, prefix: uniquePrefix("refresh") })
  refreshScenarios({ name: "Redis store, JWT sessions, no adapter", strategy: "jwt", store })
  refreshScenarios({
    name: "Redis store, database sessions",
    strategy: "database",
    adapter: async () => MemoryAdapter(),
    store,
  })
} else {
  describe.skip("refresh with a Redis store (set REDIS_URL)", () => {
    it("needs REDIS_URL", () => {})
  })
}
