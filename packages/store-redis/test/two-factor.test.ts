/**
 * Two-factor sign-in across two `Auth()` instances sharing Redis (REDIS_URL; skipped when
 * unset): code replay, the spent pending cookie and the attempt limit, each through RedisStore.
 */
import { afterAll, describe, it } from "vitest"
import { sharedStoreScenarios } from "../../core/test/two-factor/shared-store.js"
import { RedisStore } from "../src/index.js"
import { connect, REDIS_URL, uniquePrefix } from "./helpers.js"

if (REDIS_URL) {
  const client = await connect(REDIS_URL)
  afterAll(() => client.close())
  sharedStoreScenarios("RedisStore", () => new RedisStore({ client, prefix: uniquePrefix("2fa") }))
} else {
  describe.skip("two-factor with a Redis store (set REDIS_URL)", () => {
    it("needs REDIS_URL", () => {})
  })
}
