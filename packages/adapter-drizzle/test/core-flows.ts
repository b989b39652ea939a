/// <reference path="../../core/test/oauth/harness/oidc-provider.d.ts" />
/**
 * The core's flow suites a database adapter must pass, imported by the `core-flows-*` test
 * files, which replace the memory adapter with the Drizzle adapter on one engine.
 */
import "../../core/test/password/sign-up-sign-in.test.js"
import "../../core/test/password/account.test.js"
import "../../core/test/password/attacks.test.js"
import "../../core/test/two-factor/sign-in.test.js"
import "../../core/test/two-factor/first-factors.test.js"
import "../../core/test/two-factor/passkey.test.js"
import "../../core/test/account/account-api.test.js"
import "../../core/test/account/stolen-session.test.js"
import "../../core/test/ownership/claim.test.js"
import "../../core/test/ownership/admin.test.js"
import "../../core/test/email/flow.test.js"
import "../../core/test/organizations/organizations.test.js"

import { MemoryAdapter } from "../../core/src/adapters/memory.js"
import { databaseSessionListScenarios } from "../../core/test/account/db-session-list-scenarios.js"

// 2,000 sign-ins of one user (the core's own run makes 10,000 in memory): the bound holds from
// the 51st on, and a server database keeps CI short.
databaseSessionListScenarios({
  name: "drizzle",
  adapter: async () => MemoryAdapter(),
  signIns: 2_000,
})
