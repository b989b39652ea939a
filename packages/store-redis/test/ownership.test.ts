/// <reference path="../../core/test/oauth/harness/oidc-provider.d.ts" />
/**
 * Account pre-hijacking with JWT sessions whose revocation state lives in Redis (REDIS_URL;
 * skipped when unset): the core's attack scenarios, where the owner's proof claims the
 * squatter's row and the squatter's JWT must stop through the user's session version in Redis.
 */
import { MemoryAdapter } from "@latchkey/core/adapters/memory"
import { afterAll, describe, it } from "vitest"
import { ownershipScenarios } from "../../core/test/ownership/scenarios.js"
import { RedisStore } from "../src/index.js"
import { connect, REDIS_URL, uniquePrefix } from "./helpers.js"

if (REDIS_URL) {
  const client = await connect(REDIS_URL)
  afterAll(() => client.close())
  ownershipScenarios({
    name: "memory adapter, revocation in Redis",
    adapter: async () => MemoryAdapter(),
    store: async () => new RedisStore({ client, prefix: uniquePrefix("ownership") }),
    strategies: ["jwt"],
  })
} else {
  describe.skip("account pre-hijacking with revocation in Redis (set REDIS_URL)", () => {
    it("needs REDIS_URL", () => {})
  })
}
