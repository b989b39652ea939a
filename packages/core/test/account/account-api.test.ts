/** The account API scenarios with the memory adapter (PostgreSQL: packages/adapter-postgres/test). */
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { accountApiScenarios } from "./account-api-scenarios.js"

accountApiScenarios({ name: "memory adapter", adapter: async () => MemoryAdapter() })
