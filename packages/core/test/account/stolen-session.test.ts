/**
 * A copied session cannot step itself up, with the memory adapter (PostgreSQL:
 * packages/adapter-postgres/test; a Redis store: packages/store-redis/test).
 */
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { stolenSessionScenarios } from "./stolen-session-scenarios.js"

stolenSessionScenarios({ name: "memory adapter", adapter: async () => MemoryAdapter() })
