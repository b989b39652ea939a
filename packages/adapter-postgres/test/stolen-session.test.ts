/// <reference path="../../core/test/oauth/harness/oidc-provider.d.ts" />
/**
 * A copied session cannot step itself up, on PostgreSQL (PGlite always, the server when
 * DATABASE_URL is set): the core's attack scenarios, where a database session's sign-in facts
 * (`authTime`, `amr`) live in the session row and ending a session deletes it.
 */
import { stolenSessionScenarios } from "../../core/test/account/stolen-session-scenarios.js"
import { backends, freshAdapters } from "./helpers.js"

for (const backend of backends) {
  stolenSessionScenarios({
    name: `postgres on ${backend.name}`,
    adapter: freshAdapters(backend).adapter,
  })
}
