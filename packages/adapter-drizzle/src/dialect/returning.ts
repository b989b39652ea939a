/**
 * The writes of the dialects with `RETURNING` and `ON CONFLICT` (PostgreSQL and SQLite): one
 * statement each, the rows they touched in its answer.
 */
import { sql } from "drizzle-orm"
import type { QueryDb } from "../query.js"
import type { Counter, Dialect } from "./dialect.js"

type ReturningWrites = Pick<
  Dialect,
  "deleteReturning" | "updateReturning" | "upsert" | "inserted" | "alone"
>

export function returningWrites(db: QueryDb): ReturningWrites {
  return {
    deleteReturning: async (table, where, fields) =>
      await db.delete(table).where(where).returning(fields),
    updateReturning: async (table, set, where, fields) =>
      await db.update(table).set(set).where(where).returning(fields),
    // PostgreSQL and SQLite do not pick deadlock victims among single upserts: nothing to retry.
    alone: async (run) => await run(),
    upsert: (on, table, values, target, set) =>
      on.insert(table).values(values).onConflictDoUpdate({ target, set }),
    inserted: (column) => sql`excluded.${sql.identifier(column.name)}`,
  }
}

/** `INSERT … ON CONFLICT DO UPDATE SET counter = counter + 1 RETURNING counter`. */
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
