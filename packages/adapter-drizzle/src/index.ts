/**
 * Latchkey's adapter over Drizzle ORM: every method of the Latchkey adapter contract on
 * PostgreSQL, MySQL and SQLite. The tables are in `@latchkey/adapter-drizzle/pg`, `/mysql` and
 * `/sqlite`, for the app's own schema file; `@latchkey/adapter-drizzle/generate` writes that file.
 *
 * @module @latchkey/adapter-drizzle
 */
export { DrizzleAdapter, type DrizzleAdapterOptions } from "./adapter.js"
export { type LatchkeyTables, MissingTablesError, tableNames } from "./tables.js"
