/** The pre-hijacking attacks of `scenarios.ts` with the memory adapter. */
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { ownershipScenarios } from "./scenarios.js"

ownershipScenarios({ name: "memory adapter", adapter: async () => MemoryAdapter() })
