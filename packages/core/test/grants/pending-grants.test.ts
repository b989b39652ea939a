/** Issue 41's attacks (`pending-grants-scenarios.ts`) on the memory adapter and store. */
import { MemoryAdapter } from "../../src/adapters/memory.js"
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
