/**
 * Issue 41's attacks on PostgreSQL (PGlite always, the server when DATABASE_URL is set): the
 * account's state stamp lives in the database (`bumpUserSessionVersion`), and every pending link
 * is a verification-token row that a move of the state leaves unreachable.
 */
import { pendingGrantScenarios } from "../../core/test/grants/pending-grants-scenarios.js"
import { backends, freshAdapters } from "./helpers.js"

for (const backend of backends) {
  pendingGrantScenarios({
    name: `postgres on ${backend.name}`,
    adapter: freshAdapters(backend).adapter,
  })
}
