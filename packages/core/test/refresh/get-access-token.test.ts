/**
 * getAccessToken end to end, with the tokens in the session cookie (JWT, no adapter) and in the
 * in-memory adapter's `accounts` (JWT and database sessions).
 */
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { refreshScenarios } from "./scenarios.js"

refreshScenarios({ name: "JWT session, tokens in the session cookie", strategy: "jwt" })

let memory = MemoryAdapter()
refreshScenarios({
  name: "JWT session, memory adapter",
  strategy: "jwt",
  adapter: async () => {
    memory = MemoryAdapter()
    return memory
  },
})
refreshScenarios({
  name: "database session, memory adapter",
  strategy: "database",
  adapter: async () => MemoryAdapter(),
})
