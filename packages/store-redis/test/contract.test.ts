/** The shared Store contract against the real Redis at REDIS_URL (skipped when unset). */
import { runStoreContract } from "@latchkey/store-test"
import { describe, it } from "vitest"
import { RedisStore } from "../src/index.js"
import { connect, REDIS_URL, uniquePrefix } from "./helpers.js"

const url = REDIS_URL
if (url) {
  let client: Awaited<ReturnType<typeof connect>> | undefined
  runStoreContract({
    name: "redis",
    store: async () => {
      client = await connect(url)
      return new RedisStore({ client, prefix: uniquePrefix("contract") })
    },
    teardown: async () => {
      await client?.close()
    },
  })
} else {
  describe.skip("store contract: redis (set REDIS_URL)", () => {
    it("needs REDIS_URL", () => {})
  })
}
