/// <reference path="../../core/test/oauth/harness/oidc-provider.d.ts" />
/**
 * Provider token refresh with the PostgreSQL adapter (PGlite always, the server when
 * DATABASE_URL is set), JWT and database sessions: the core's scenarios against the real
 * OpenID Provider, plus what is actually stored in the `accounts` table.
 */
import { refreshScenarios } from "../../core/test/refresh/scenarios.js"
import { backends, freshAdapters } from "./helpers.js"

for (const backend of backends) {
  for (const strategy of ["database", "jwt"] as const) {
    const fresh = freshAdapters(backend)
    refreshScenarios({
      name: `postgres on ${backend.name}, ${strategy} session`,
      strategy,
      adapter: fresh.adapter,
      // Every token column of every row, as text: what a database leak would show.
      rawAccount: async () =>
        JSON.stringify(
          await fresh.database().sql("SELECT refresh_token, access_token, id_token FROM accounts"),
        ),
    })
  }
}
