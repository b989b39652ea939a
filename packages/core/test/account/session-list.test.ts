/** The per-user session list with the memory store (Redis: packages/store-redis/test). */
import { MemoryStore } from "../../src/store.js"
import { sessionListScenarios } from "./session-list-scenarios.js"

sessionListScenarios({ name: "memory store", store: () => new MemoryStore() })
