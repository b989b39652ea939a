import { runStoreContract } from "@latchkey/store-test"
import { MemoryStore } from "../../src/store.js"

runStoreContract({ name: "memory", store: () => new MemoryStore() })
