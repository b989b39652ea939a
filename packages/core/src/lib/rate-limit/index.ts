/** Pluggable rate limiting: a store contract and the in-memory default. */

export { defaultClientIp } from "./client-ip.js"
export {
  DEFAULT_PER_ADDRESS,
  DEFAULT_PER_IP,
  defaultRateLimitStore,
  type EmailRateLimitVerdict,
  hitAddressLimit,
  hitIpLimit,
} from "./email-limits.js"
export {
  defaultStore,
  MemoryRateLimitStore,
  type MemoryRateLimitStoreOptions,
  MemoryStore,
  type MemoryStoreOptions,
} from "./memory-store.js"
export type { RateLimitResult, RateLimitRule, RateLimitStore, Store } from "./store.js"
