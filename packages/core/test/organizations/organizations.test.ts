/** The organizations scenarios with the memory adapter (PostgreSQL: packages/adapter-postgres/test). */
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { organizationScenarios } from "./organizations-scenarios.js"

organizationScenarios({ name: "memory adapter", adapter: async () => MemoryAdapter() })
