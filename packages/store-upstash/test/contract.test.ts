/**
 * The shared Store contract against the HTTP store, through the test bridge to the real Redis at
 * REDIS_URL (skipped when unset): every request crosses @upstash/redis, HTTP and the REST API.
 */
import { runStoreContract } from "@latchkey/store-test"
import { describe, it } from "vitest"
import { UpstashStore } from "../src/index.js"
import { type Bridge, REDIS_URL, startBridge, uniquePrefix } from "./helpers.js"

const url = REDIS_URL
if (url) {
  let bridge: Bridge | undefined
  runStoreContract({
    name: "upstash (REST, through the test bridge)",
    store: async () => {
      bridge = await startBridge({ redisUrl: url })
      return new UpstashStore({
        url: bridge.url,
        token: bridge.token,
        prefix: uniquePrefix("contract"),
        // The contract checks answers, not latency: on a loaded CI machine a command through
        // the bridge can take over the default second, and one timeout pauses the store.
        commandTimeoutMs: 5_000,
      })
    },
    teardown: async () => {
      await bridge?.close()
    },
  })
} else {
  describe.skip("store contract: upstash (set REDIS_URL)", () => {
    it("needs REDIS_URL", () => {})
  })
}
