/// <reference path="../../core/test/oauth/harness/oidc-provider.d.ts" />
/**
 * Account pre-hijacking on PostgreSQL (PGlite always, the server when DATABASE_URL is set): the
 * core's attack scenarios, where deleting the claimed row must take its accounts, passkeys and
 * sessions with it (foreign keys, ON DELETE CASCADE).
 */
import { ownershipScenarios } from "../../core/test/ownership/scenarios.js"
import { backends, freshAdapters } from "./helpers.js"

for (const backend of backends) {
  ownershipScenarios({
    name: `postgres on ${backend.name}`,
    adapter: freshAdapters(backend).adapter,
  })
}
