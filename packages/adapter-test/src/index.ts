/**
 * The Adapter contract as a test suite: one set of vitest `describe`/`it` blocks that every
 * Latchkey adapter runs in its own tests (the in-memory adapter, PostgreSQL on PGlite and on a
 * server, …). It checks what the core relies on — record shapes, exact round trips, single use
 * of verification tokens, cascades — and what a database makes hard: concurrency, unicode and
 * very long values, dates to the millisecond.
 *
 * ```ts
 * import { runAdapterContract } from "@latchkey/adapter-test"
 * runAdapterContract({ name: "memory", adapter: () => MemoryAdapter() })
 * ```
 *
 * @module @latchkey/adapter-test
 */
import type { Adapter } from "@latchkey/core/adapters"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { accountApiTests } from "./account-api.js"
import { accountTests } from "./accounts.js"
import { authenticatorTests } from "./authenticators.js"
import type { ContractContext, ContractOptions } from "./context.js"
import { requireMethods } from "./context.js"
import { organizationTests } from "./organizations.js"
import { passwordTests } from "./passwords.js"
import { refreshAccountTests } from "./refresh-accounts.js"
import { revocationTests } from "./revocation.js"
import { robustnessTests } from "./robustness.js"
import { sessionTests } from "./sessions.js"
import { userTests } from "./users.js"
import { verificationTokenTests } from "./verification-tokens.js"

export type { AdapterCapabilities, ContractOptions } from "./context.js"

/**
 * Registers the contract suite for one adapter under `describe("adapter contract: <name>")`.
 * `adapter` is called once before the tests; `teardown` once after them. Tests create their own
 * records with random keys, so the suite can share a database with other data.
 */
export function runAdapterContract(options: ContractOptions): void {
  describe(`adapter contract: ${options.name}`, () => {
    let adapter: Adapter | undefined
    const context: ContractContext = {
      get adapter() {
        if (!adapter) throw new Error("the adapter is not ready (did its factory fail?)")
        return requireMethods(adapter)
      },
      get raw() {
        if (!adapter) throw new Error("the adapter is not ready (did its factory fail?)")
        return adapter
      },
      capabilities: {
        authenticators: options.capabilities?.authenticators,
        maxStringLength: options.capabilities?.maxStringLength ?? 10_000,
        uniqueAccounts: options.capabilities?.uniqueAccounts ?? true,
      },
    }

    beforeAll(async () => {
      adapter = await options.adapter()
    })
    afterAll(async () => {
      await options.teardown?.()
    })

    // A Latchkey adapter is made with `withAdapterFeature`, so `Auth()` takes it as it is (an
    // Auth.js adapter needs the call, or `withPlainProviders`).
    it("carries the adapter feature (made with withAdapterFeature)", () => {
      const carried = (context.raw as unknown as Record<symbol, { id?: unknown } | undefined>)[
        Symbol.for("latchkey.feature")
      ]
      expect(carried?.id).toBe("adapter")
    })

    userTests(context)
    accountTests(context)
    refreshAccountTests(context)
    sessionTests(context)
    verificationTokenTests(context)
    authenticatorTests(context)
    revocationTests(context)
    accountApiTests(context)
    passwordTests(context)
    organizationTests(context)
    robustnessTests(context)
  })
}
