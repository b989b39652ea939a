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

/** Which statements' rows a step wants: none, the last one's, or every one's. */
type Wanted = "none" | "last" | "all"

/** Runs `queries` as one: a batch where the driver has one, else a transaction. */
type Runner = (make: (db: QueryDb) => Query[], wanted: Wanted) => Promise<Row[][]>

const wants = (wanted: Wanted, index: number, count: number) =>
  wanted === "all" || (wanted === "last" && index === count - 1)

function runner(db: SQLiteDatabase): Runner {
  if (typeof db.batch === "function") {
    const batch = db.batch.bind(db)
    return async (make, wanted) => {
      const results = await batch(make(db))
      return results.map((result, i) => (wants(wanted, i, results.length) ? (result as Row[]) : []))
    }
  }
  if (db.resultKind === "sync") {
    return async (make, wanted) =>
      db.transaction((tx) =>
        make(tx).map((query, i, all) => {
          if (wants(wanted, i, all.length)) return query.all!()
          query.run!()
          return []
        }),
      )
  }
  // An asynchronous driver without batches (a proxy, Expo): its transaction takes a promise.
  return (make, wanted) =>
    db.transaction(async (tx) => {
      const queries = make(tx)
      const results: Row[][] = []
      for (const [i, query] of queries.entries()) {
        const result = await query
        results.push(wants(wanted, i, queries.length) ? (result as Row[]) : [])
      }
      return results
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
      await run(statements, "none")
    },
    increment: async (counter, before) => {
      const results = await run((tx) => [...before(tx), upsertIncrement(tx, counter)], "last")
      return Number(results.at(-1)?.[0]?.value)
    },
    prepare: (_name, query) => {
      const prepared = query.prepare()
      return async (values: Row) => await prepared.all(values)
    },
    concurrency: { kind: "serial", rows: (statements) => run(statements, "all") },
  }
}
