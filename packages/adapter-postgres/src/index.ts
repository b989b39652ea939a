/**
 * PostgreSQL adapter for Latchkey, on a `pg` Pool or an embedded PGlite database, with the
 * schema of `@auth/pg-adapter` so an existing Auth.js database works unchanged.
 *
 * @module @latchkey/adapter-postgres
 */
export { PostgresAdapter, type PostgresAdapterOptions } from "./adapter.js"
export { type Queryable, QueryTimeoutError } from "./client.js"
export {
  loadMigrations,
  type MigrateOptions,
  type MigrateResult,
  type Migration,
  migrate,
} from "./migrate.js"
