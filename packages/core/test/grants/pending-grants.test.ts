/** Issue 41's attacks (`pending-grants-scenarios.ts`) on the memory adapter and store. */
import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { withAdapterFeature } from "../../src/adapters.js"
import { resolveConfig } from "../../src/kernel/config/resolve.js"
import type { Adapter } from "../../src/kernel/types/adapters.js"
import GitHub from "../../src/providers/github.js"
import { Nodemailer } from "../../src/providers/nodemailer.js"
import Passkey from "../../src/providers/passkey.js"
import { drizzleOnPglite, unstorageInMemory } from "../authjs-adapters/adapters.js"
import {
  authJsAdapterScenarios,
  authJsShaped,
  pendingGrantScenarios,
} from "./pending-grants-scenarios.js"

pendingGrantScenarios({ name: "memory adapter", adapter: async () => MemoryAdapter() })

authJsAdapterScenarios("an Auth.js-shaped memory adapter", async () => ({
  adapter: authJsShaped(),
}))
authJsAdapterScenarios("@auth/drizzle-adapter on PGlite", drizzleOnPglite)
authJsAdapterScenarios("@auth/unstorage-adapter", unstorageInMemory)

describe("claim-needs-methods: the adapter methods a claim needs, named at start-up", () => {
  const providers = () => [
    Passkey(),
    Nodemailer({ id: "email", sendVerificationRequest: () => {} }),
    GitHub({ clientId: "id", clientSecret: "secret" }),
  ]
  function warningsFor(adapter: Adapter): { code: string; message: string | undefined }[] {
    const warnings: { code: string; message: string | undefined }[] = []
    resolveConfig({
      secret: "a-claim-methods-secret-with-32-bytes-or-more",
      trustHost: true,
      adapter: withAdapterFeature(adapter),
      experimental: { enableWebAuthn: true },
      providers: providers(),
      logger: { warn: (code, message) => void warnings.push({ code, message }) },
    })
    return warnings.filter((w) => w.code === "claim-needs-methods")
  }

  it("an Auth.js adapter with OAuth providers: listAccountsByUserId is named", () => {
    const [warning] = warningsFor(authJsShaped())
    expect(warning?.message).toContain("listAccountsByUserId")
    expect(warning?.message).not.toContain("unlinkAccount")
  })

  it("a Latchkey adapter: nothing to say", () => {
    expect(warningsFor(MemoryAdapter())).toEqual([])
  })
})
