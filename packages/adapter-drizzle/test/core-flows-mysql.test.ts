/**
 * The core's own flow suites through `Auth()` with the Drizzle adapter on MySQL (the MariaDB
 * server at `MYSQL_URL`, a fresh database for each adapter) in place of the memory adapter.
 */
import { afterAll, it, vi } from "vitest"
import { mysqlUrl } from "./engines.js"

vi.mock("../../core/src/adapters/memory.js", async () => {
  const { drizzleStandIn } = await import("./stand-in.js")
  const { mysqlEngine } = await import("./engines.js")
  return await drizzleStandIn(mysqlEngine)
})

if (mysqlUrl) {
  await import("./core-flows.js")
  afterAll(async () => {
    const memory = (await import("../../core/src/adapters/memory.js")) as unknown as {
      closeAll(): Promise<void>
    }
    await memory.closeAll()
  })
} else {
  it.skip("MYSQL_URL is not set: the MySQL runs are skipped", () => {})
}
