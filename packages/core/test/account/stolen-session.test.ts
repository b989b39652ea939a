/**
 * A copied session cannot step itself up, with the memory adapter (PostgreSQL:
 * packages/adapter-postgres/test; a Redis store: packages/store-redis/test).
 */
import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { resolveConfig } from "../../src/kernel/config/resolve.js"
import { InvalidConfiguration } from "../../src/kernel/errors/errors.js"
import type { AuthConfig } from "../../src/types.js"
import { recordingLogger, SECRET } from "../auth/helpers.js"
import { stolenSessionScenarios } from "./stolen-session-scenarios.js"

stolenSessionScenarios({ name: "memory adapter", adapter: async () => MemoryAdapter() })

describe("account.rateLimit configuration", () => {
  const base = { secret: SECRET, trustHost: true, providers: [], logger: recordingLogger().logger }

  it("a rule that counts nothing is a configuration error naming the option", () => {
    for (const rateLimit of [
      { perUser: { limit: 0, windowMs: 1000 } },
      { perUser: { limit: 3, windowMs: -1 } },
      { perUser: "30" },
    ]) {
      const { configError } = resolveConfig({ ...base, account: { rateLimit } } as AuthConfig)
      expect(configError).toBeInstanceOf(InvalidConfiguration)
      expect(configError!.message).toContain("account.rateLimit")
    }
  })

  it("the default, false and perUser: false are valid", () => {
    for (const account of [{}, { rateLimit: false }, { rateLimit: { perUser: false } }] as const) {
      expect(resolveConfig({ ...base, account } as AuthConfig).configError).toBeUndefined()
    }
  })
})
