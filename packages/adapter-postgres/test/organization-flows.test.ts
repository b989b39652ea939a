/**
 * Organizations through `Auth()` on PostgreSQL (PGlite always, the server when DATABASE_URL is
 * set): the core's scenarios (every rule, the races, other organizations' ids, CSRF), JWT and
 * database sessions, a fresh schema per test.
 */
import { organizationScenarios } from "../../core/test/organizations/organizations-scenarios.js"
import { backends, freshAdapters } from "./helpers.js"

for (const backend of backends) {
  organizationScenarios({
    name: `postgres on ${backend.name}`,
    adapter: freshAdapters(backend).adapter,
  })
}
