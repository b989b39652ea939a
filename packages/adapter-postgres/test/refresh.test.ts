/// <reference path="../../core/test/oauth/harness/oidc-provider.d.ts" />
/**
 * Provider token refresh with the PostgreSQL adapter (PGlite always, the server when
 * DATABASE_URL is set), JWT and database sessions: the core's scenarios against the real
 * OpenID Provider, plus what is actually stored in the `accounts` table.
 */
import { refreshScenarios } from "../../core/test/refresh/scenarios.js"
import { migrate, PostgresAdapter } from "../src/index.js"
import { backends, type TestDatabase } from "./helpers.js"

for (const backend of backends) {
  for (const strategy of ["database", "jwt"] as const) {
    let db: TestDatabase | undefined
    refreshScenarios({
      name: `postgres on ${backend.name}, ${strategy} session`,
      strategy,
      async adapter() {
        await db?.close()
        db = await backend.create()
        await migrate(db.client)
        return PostgresAdapter(db.client)
      },
      // Every token column of every row, as text: what a database leak would show.
      rawAccount: async () =>
        JSON.stringify(await db!.sql("SELECT refresh_token, access_token, id_token FROM accounts")),
    })
  }
}
