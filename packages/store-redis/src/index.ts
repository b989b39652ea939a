/**
 * `@latchkey/store-redis`: Latchkey's store on Redis, for apps that run several instances.
 *
 * ```ts
 * import { createClient } from "@redis/client" // or from "redis"
 * import { RedisStore } from "@latchkey/store-redis"
 *
 * const client = await createClient({ url: process.env.REDIS_URL }).connect()
 * export const store = new RedisStore({ client, prefix: "myapp:auth:" })
 * // AuthConfig: { ..., store }
 * ```
 *
 * A Redis Cluster client (`createCluster()`) is taken the same way. The Lua scripts and the
 * map-field codec, free of any client, are `@latchkey/store-redis/scripts`.
 *
 * @module @latchkey/store-redis
 */
export {
  type RedisClusterCommandClient,
  type RedisCommandClient,
  RedisStore,
  type RedisStoreOptions,
} from "./redis-store.js"
