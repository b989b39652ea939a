/**
 * Issue 41's attacks with the account's state in Redis (REDIS_URL; skipped when unset): the
 * stamp every grant is bound to is the user's session version in Redis, shared by instances.
 */
import { MemoryAdapter } from "@latchkey/core/adapters/memory"
import { afterAll, describe, it } from "vitest"
import { pendingGrantScenarios } from "../../core/test/grants/pending-grants-scenarios.js"
import { RedisStore } from "../src/index.js"
import { connect, REDIS_URL, uniquePrefix } from "./helpers.js"

if (REDIS_URL) {
  const client = await connect(REDIS_URL)
  afterAll(() => client.close())
  pendingGrantScenarios({
    name: "memory adapter, account state in Redis",
    adapter: async () => MemoryAdapter(),
    store: async () => new RedisStore({ client, prefix: uniquePrefix("grants") }),
  })
} else {
  describe.skip("pending grants with the account state in Redis (set REDIS_URL)", () => {
    it("needs REDIS_URL", () => {})
  })
}
