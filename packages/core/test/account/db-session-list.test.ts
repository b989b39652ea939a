/** Database sessions of one user under repeated sign-in, memory adapter (PostgreSQL: packages/adapter-postgres/test). */
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { databaseSessionListScenarios } from "./db-session-list-scenarios.js"

databaseSessionListScenarios({
  name: "memory adapter",
  adapter: async () => MemoryAdapter(),
  signIns: 10_000,
})
