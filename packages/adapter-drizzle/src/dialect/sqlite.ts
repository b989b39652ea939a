/**
 * SQLite (D1, libSQL/Turso, better-sqlite3, Bun's SQLite): `RETURNING` and `ON CONFLICT`
 * upserts as on PostgreSQL. Several statements run as one through the driver's own means: a
 * batch on D1 and libSQL (D1 has no interactive transactions), a synchronous transaction on
 * better-sqlite3 and Bun (an asynchronous callback would let other calls in between).
 */
import { sql } from "drizzle-orm"
import type { Query, QueryDb, Row } from "../query.js"
import type { Dialect, Statements } from "./dialect.js"
import { returningWrites, upsertIncrement } from "./returning.js"

interface SQLiteDatabase extends QueryDb {
  resultKind: "sync" | "async"
  batch?(queries: Query[]): Promise<unknown[]>
  transaction<T>(run: (tx: QueryDb) => T): T
}

/** Runs `queries` as one: a batch where the driver has one, else a transaction. */
type Runner = (make: (db: QueryDb) => Query[], rowsOfLast: boolean) => Promise<Row[]>

function runner(db: SQLiteDatabase): Runner {
  if (typeof db.batch === "function") {
    const batch = db.batch.bind(db)
    return async (make, rowsOfLast) => {
      const results = await batch(make(db))
      return rowsOfLast ? (results.at(-1) as Row[]) : []
    }
  }
  if (db.resultKind === "sync") {
    return async (make, rowsOfLast) =>
      db.transaction((tx) => {
        const queries = make(tx)
        const last = rowsOfLast ? queries.pop() : undefined
        for (const query of queries) query.run!()
        return last ? last.all!() : []
      })
  }
  // An asynchronous driver without batches (a proxy, Expo): its transaction takes a promise.
  return (make, rowsOfLast) =>
    db.transaction(async (tx) => {
      let result: unknown
      for (const query of make(tx)) result = await query
      return rowsOfLast ? (result as Row[]) : []
    })
}

export function sqliteDialect(database: unknown): Dialect {
  const db = database as SQLiteDatabase
  const run = runner(db)
  return {
    name: "sqlite",
    db,
    ...returningWrites(db),
    greatest: (a, b) => sql`max(${a}, ${b})`,
    atomic: async (statements: Statements) => {
      await run(statements, false)
    },
    increment: async (counter, before) => {
      const [row] = await run((tx) => [...before(tx), upsertIncrement(tx, counter)], true)
      return Number(row?.value)
    },
    prepare: (_name, query) => {
      const prepared = query.prepare()
      return async (values: Row) => await prepared.all(values)
    },
  }
}
