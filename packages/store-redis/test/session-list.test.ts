/** The per-user session list in Redis (REDIS_URL; skipped when unset): concurrent sign-ins all listed. */
import { afterAll, describe, it } from "vitest"
import { sessionListScenarios } from "../../core/test/account/session-list-scenarios.js"
import { RedisStore } from "../src/index.js"
import { connect, REDIS_URL, uniquePrefix } from "./helpers.js"

if (REDIS_URL) {
  const client = await connect(REDIS_URL)
  afterAll(() => client.close())
  sessionListScenarios({
    name: "Redis store",
    store: () => new RedisStore({ client, prefix: uniquePrefix("sessions") }),
  })
} else {
  describe.skip("per-user session list in Redis (set REDIS_URL)", () => {
    it("needs REDIS_URL", () => {})
  })
}
