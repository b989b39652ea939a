/**
 * Latchkey's shared store on Cloudflare Workers: `DurableObjectStore`, and the Durable Object
 * class it calls, `LatchkeyStoreObject`, which the app's worker exports and binds.
 *
 * @module @latchkey/store-durable-object
 */
export {
  type DurableObjectNamespaceLike,
  DurableObjectStore,
  type DurableObjectStoreOptions,
} from "./durable-object-store.js"
export { type DurableObjectStateLike, LatchkeyStoreObject } from "./object.js"
