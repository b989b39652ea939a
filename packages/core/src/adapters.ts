/**
 * The contract between Latchkey and a database. Method names and record shapes are those of
 * Auth.js v5 (`@auth/core/adapters`), so an Auth.js adapter works here (given the code that
 * serves it: `withAdapterFeature(adapter)`) and the reverse.
 *
 * @module @latchkey/core/adapters
 */

export { withAdapterFeature } from "./features/adapter/index.js"
export * from "./kernel/types/adapters.js"
