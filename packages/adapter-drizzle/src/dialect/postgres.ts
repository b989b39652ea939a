/**
 * PostgreSQL (`pg`, PGlite, Neon, …): `RETURNING` on every write, `ON CONFLICT` upserts,
 * transactions, and named prepared statements (parsed and planned once per connection).
 */
import { safeErrorCode } from "@latchkey/core/adapters/sql"
import { sql } from "drizzle-orm"
import type { QueryDb, Row } from "../query.js"
import type { Dialect, Statements } from "./dialect.js"
import { returningWrites, upsertIncrement } from "./returning.js"

interface PgDatabase extends QueryDb {
  transaction<T>(
    run: (tx: QueryDb) => Promise<T>,
    config?: { isolationLevel: "read committed" },
  ): Promise<T>
}

export function postgresDialect(database: unknown): Dialect {
  const db = database as PgDatabase
  const inTransaction = <T>(run: (tx: QueryDb) => Promise<T>) => db.transaction(run)
  return {
    name: "pg",
    db,
    ...returningWrites(db),
    greatest: (a, b) => sql`greatest(${a}, ${b})`,
    atomic: (statements: Statements) =>
      inTransaction(async (tx) => {
        for (const statement of statements(tx)) await statement
      }),
    increment: (counter, before) =>
      inTransaction(async (tx) => {
        for (const statement of before(tx)) await statement
        const [row] = await upsertIncrement(tx, counter)
        return Number(row?.value)
      }),
    prepare: (name, query) => {
      const prepared = query.prepare(name)
      return async (values: Row) => await prepared.execute!(values)
    },
    concurrency: {
      kind: "locks",
      transaction: (run) => db.transaction(run, { isolationLevel: "read committed" }),
      // NO KEY UPDATE: rows that only reference the locked one (a session of the user) are not
      // held up; other locking steps are.
      lock: (query) => query.for("no key update"),
      isUniqueViolation: (error) => safeErrorCode(error) === "23505",
    },
  }
}
