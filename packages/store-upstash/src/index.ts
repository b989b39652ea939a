/**
 * `@latchkey/store-upstash`: Latchkey's store over Redis's REST protocol (Upstash Redis, Vercel
 * KV), for apps on the edge that run several instances.
 *
 * ```ts
 * import { UpstashStore } from "@latchkey/store-upstash"
 *
 * export const store = new UpstashStore({
 *   url: env.UPSTASH_REDIS_REST_URL,
 *   token: env.UPSTASH_REDIS_REST_TOKEN,
 *   prefix: "myapp:auth:",
 * })
 * // AuthConfig: { ..., store }
 * ```
 *
 * @module @latchkey/store-upstash
 */
export { UpstashStore, type UpstashStoreOptions } from "./upstash-store.js"
