/** The two-instance scenarios with one `MemoryStore` object shared by both configs. */
import { MemoryStore } from "../../src/store.js"
import { sharedStoreScenarios } from "./shared-store.js"

sharedStoreScenarios("one MemoryStore", () => new MemoryStore())
