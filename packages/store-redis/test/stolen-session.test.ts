/// <reference path="../../core/test/oauth/harness/oidc-provider.d.ts" />
/**
 * A copied session cannot step itself up, with a Redis store (REDIS_URL; skipped when unset):
 * JWT revocation (the ended copy) and the per-user limit of account changes live in Redis.
 */

import { MemoryAdapter } from "@latchkey/core/adapters/memory"
import { afterAll, describe, it } from "vitest"
import { stolenSessionScenarios } from "../../core/test/account/stolen-session-scenarios.js"
import { RedisStore } from "../src/index.js"
import { connect, REDIS_URL, uniquePrefix } from "./helpers.js"

if (REDIS_URL) {
  const client = await connect(REDIS_URL)
  afterAll(() => client.close())
  stolenSessionScenarios({
    name: "RedisStore",
    adapter: async () => MemoryAdapter(),
    store: () => new RedisStore({ client, prefix: uniquePrefix("stolen-session") }),
  })
} else {
  describe.skip("stolen session with a Redis store (set REDIS_URL)", () => {
    it("needs REDIS_URL", () => {})
  })
}
