/**
 * The store contract: where Latchkey keeps rate-limit counters, consumed single-use values
 * (OAuth states, locks) and session revocation state. Pass a store as the top-level `store`
 * option; without one, `MemoryStore` keeps everything in this process.
 *
 * ```ts
 * import { MemoryStore } from "@latchkey/core/store"
 * const config = { providers, store: new MemoryStore({ maxKeys: 50_000 }) }
 * ```
 *
 * A store for several instances implements {@link Store} on shared storage and runs the
 * shared contract suite (`@latchkey/store-test`) in its tests.
 *
 * @module @latchkey/core/store
 */
export { StoreError, StoreFull, StoreTimeout } from "./kernel/errors/errors.js"
export { assertMapBound, assertStoreValue, assertTtl } from "./kernel/rate-limit/limits.js"
export {
  defaultStore,
  MemoryRateLimitStore,
  type MemoryRateLimitStoreOptions,
  MemoryStore,
  type MemoryStoreOptions,
} from "./kernel/rate-limit/memory-store.js"
export type {
  HitOptions,
  MapBound,
  RateLimitResult,
  RateLimitRule,
  RateLimitStore,
  Store,
} from "./kernel/types/store.js"
