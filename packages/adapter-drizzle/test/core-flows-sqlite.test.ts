/**
 * The core's own flow suites through `Auth()` with the Drizzle adapter on SQLite
 * (better-sqlite3) in place of the memory adapter: password accounts, two-factor, the account
 * API, the claim of an unproven address, email links, organizations.
 */
import { afterAll, vi } from "vitest"

vi.mock("../../core/src/adapters/memory.js", async () => {
  const { drizzleStandIn } = await import("./stand-in.js")
  const { betterSqlite3Engine } = await import("./engines.js")
  return await drizzleStandIn(betterSqlite3Engine)
})

import "./core-flows.js"

afterAll(async () => {
  const memory = (await import("../../core/src/adapters/memory.js")) as unknown as {
    closeAll(): Promise<void>
  }
  await memory.closeAll()
})
