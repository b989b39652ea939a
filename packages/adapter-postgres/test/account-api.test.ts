/**
 * The account API through `Auth()` on PostgreSQL (PGlite always, the server when DATABASE_URL
 * is set): the core's scenarios (every change, other users' ids, stale sign-in, CSRF, the last
 * way to sign in), JWT and database sessions, a fresh schema per test.
 */
import { accountApiScenarios } from "../../core/test/account/account-api-scenarios.js"
import { migrate, PostgresAdapter } from "../src/index.js"
import { backends, type TestDatabase } from "./helpers.js"

for (const backend of backends) {
  let db: TestDatabase | undefined
  accountApiScenarios({
    name: `postgres on ${backend.name}`,
    async adapter() {
      await db?.close()
      db = await backend.create()
      await migrate(db.client)
      return PostgresAdapter(db.client)
    },
  })
}
