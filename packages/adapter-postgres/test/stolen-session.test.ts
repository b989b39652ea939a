/// <reference path="../../core/test/oauth/harness/oidc-provider.d.ts" />
/**
 * A copied session cannot step itself up, on PostgreSQL (PGlite always, the server when
 * DATABASE_URL is set): the core's attack scenarios, where a database session's sign-in facts
 * (`authTime`, `amr`) live in the session row and ending a session deletes it.
 */
import { stolenSessionScenarios } from "../../core/test/account/stolen-session-scenarios.js"
import { migrate, PostgresAdapter } from "../src/index.js"
import { backends, type TestDatabase } from "./helpers.js"

for (const backend of backends) {
  let db: TestDatabase | undefined
  stolenSessionScenarios({
    name: `postgres on ${backend.name}`,
    async adapter() {
      await db?.close()
      db = await backend.create()
      await migrate(db.client)
      return PostgresAdapter(db.client)
    },
  })
}
