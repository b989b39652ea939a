/**
 * PostgreSQL (`pg`, PGlite, Neon, …): `RETURNING` on every write, `ON CONFLICT` upserts,
 * transactions, and named prepared statements (parsed and planned once per connection).
 */
import { sql } from "drizzle-orm"
import type { QueryDb, Row } from "../query.js"
import type { Counter, Dialect, Statements } from "./dialect.js"

interface PgDatabase extends QueryDb {
  transaction<T>(run: (tx: QueryDb) => Promise<T>): Promise<T>
}

export function postgresDialect(database: unknown): Dialect {
  const db = database as PgDatabase
  const inTransaction = <T>(run: (tx: QueryDb) => Promise<T>) => db.transaction(run)
  return {
    name: "pg",
    db,
    deleteReturning: async (table, where, fields) =>
      await db.delete(table).where(where).returning(fields),
    updateReturning: async (table, set, where, fields) =>
      await db.update(table).set(set).where(where).returning(fields),
    upsert: (on, table, values, target, set) =>
      on.insert(table).values(values).onConflictDoUpdate({ target, set }),
    inserted: (column) => sql`excluded.${sql.identifier(column.name)}`,
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
  }
}

/** `INSERT … ON CONFLICT DO UPDATE SET counter = counter + 1 RETURNING counter` (also SQLite's). */
export function upsertIncrement(db: QueryDb, counter: Counter) {
  return db
    .insert(counter.table)
    .values({ ...counter.key, [counter.property]: 1 })
    .onConflictDoUpdate({
      target: counter.target,
      set: { [counter.property]: sql`${counter.column} + 1` },
    })
    .returning({ value: counter.column })
}
