/**
 * The account API through `Auth()` on PostgreSQL (PGlite always, the server when DATABASE_URL
 * is set): the core's scenarios (every change, other users' ids, stale sign-in, CSRF, the last
 * way to sign in), JWT and database sessions, a fresh schema per test.
 */
import { accountApiScenarios } from "../../core/test/account/account-api-scenarios.js"
import { backends, freshAdapters } from "./helpers.js"

for (const backend of backends) {
  accountApiScenarios({
    name: `postgres on ${backend.name}`,
    adapter: freshAdapters(backend).adapter,
  })
}
