/**
 * The contract between Latchkey and a database. Method names and record shapes are those of
 * Auth.js v5 (`@auth/core/adapters`), so an Auth.js adapter works here and the reverse.
 *
 * @module @latchkey/core/adapters
 */
export * from "./kernel/types/adapters.js"
