/// <reference path="../../core/test/oauth/harness/oidc-provider.d.ts" />
/**
 * Account pre-hijacking on PostgreSQL (PGlite always, the server when DATABASE_URL is set): the
 * core's attack scenarios, where deleting the claimed row must take its accounts, passkeys and
 * sessions with it (foreign keys, ON DELETE CASCADE).
 */
import { ownershipScenarios } from "../../core/test/ownership/scenarios.js"
import { migrate, PostgresAdapter } from "../src/index.js"
import { backends, type TestDatabase } from "./helpers.js"

for (const backend of backends) {
  let db: TestDatabase | undefined
  ownershipScenarios({
    name: `postgres on ${backend.name}`,
    async adapter() {
      await db?.close()
      db = await backend.create()
      await migrate(db.client)
      return PostgresAdapter(db.client)
    },
  })
}
