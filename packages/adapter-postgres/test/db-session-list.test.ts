/**
 * Database sessions of one user under repeated sign-in on PostgreSQL (PGlite always, the
 * server when DATABASE_URL is set): the core's scenarios, with the user's rows counted in the
 * table itself (expired ones included), a fresh schema per test.
 */
import { afterAll } from "vitest"
import { databaseSessionListScenarios } from "../../core/test/account/db-session-list-scenarios.js"
import { backends, freshAdapters } from "./helpers.js"

for (const backend of backends) {
  const fresh = freshAdapters(backend)
  afterAll(fresh.close)
  databaseSessionListScenarios({
    name: `postgres on ${backend.name}`,
    adapter: fresh.adapter,
    // 2,000 sign-ins: the bound holds from the 51st on, and CI stays short.
    signIns: 2_000,
    countRows: async (userId) =>
      Number(
        (
          await fresh
            .database()
            .sql(`SELECT count(*)::int AS n FROM sessions WHERE "userId" = $1`, [userId])
        )[0]!.n,
      ),
  })
}
