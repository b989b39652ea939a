/**
 * MySQL and MariaDB (`mysql2`): no `RETURNING`, so a write that returns rows reads around
 * itself (an update, in its transaction), and the affected-row count decides which of two concurrent deletes got a row (the
 * delete takes the row's lock: one of them deletes it, the other deletes nothing). Upserts are
 * `ON DUPLICATE KEY UPDATE`; a counter's new value comes back through `LAST_INSERT_ID(expr)`,
 * the connection's own, in the same statement.
 */
import { safeErrorCode } from "@latchkey/core/adapters/sql"
import { sql } from "drizzle-orm"
import type { QueryDb, Row } from "../query.js"
import type { Dialect, Statements } from "./dialect.js"

interface MySqlDatabase extends QueryDb {
  transaction<T>(
    run: (tx: QueryDb) => Promise<T>,
    config?: { isolationLevel: "read committed" },
  ): Promise<T>
}

/** mysql2's answer to a write: `[ResultSetHeader, fields]`. */
type WriteResult = [{ affectedRows: number; insertId: number }, unknown]

/**
 * InnoDB ends one of two transactions that wait on each other's locks with ER_LOCK_DEADLOCK
 * (concurrent `INSERT … ON DUPLICATE KEY UPDATE` on one key is enough) and rolls it back whole,
 * so running it again is safe and is what MySQL's manual asks of clients. A few tries, with a
 * jittered pause so the two do not meet again.
 */
async function retryingDeadlocks<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await run()
    } catch (error) {
      if (attempt >= DEADLOCK_TRIES || safeErrorCode(error) !== "ER_LOCK_DEADLOCK") throw error
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 10 * attempt))
    }
  }
}
const DEADLOCK_TRIES = 5

export function mysqlDialect(database: unknown): Dialect {
  const raw = database as MySqlDatabase
  // Every transaction of this adapter is one unit of work that a deadlock rolls back whole.
  const db: MySqlDatabase = Object.create(raw, {
    transaction: {
      value: <T>(run: (tx: QueryDb) => Promise<T>, config?: { isolationLevel: "read committed" }) =>
        retryingDeadlocks(() => raw.transaction(run, config)),
    },
  })
  return {
    name: "mysql",
    db,
    async deleteReturning(table, where, fields) {
      const found = await db.select(fields).from(table).where(where)
      if (found.length === 0) return []
      const [result] = (await db.delete(table).where(where)) as WriteResult
      // Another call deleted them between the read and the delete: they are not ours.
      return result.affectedRows === found.length ? found : []
    },
    // The UPDATE holds the rows' locks until the transaction ends: the read sees this call's
    // values, never those of a concurrent update.
    updateReturning: (table, set, where, fields) =>
      db.transaction(async (tx) => {
        await tx.update(table).set(set).where(where)
        return await tx.select(fields).from(table).where(where)
      }),
    upsert: (on, table, values, _target, set) =>
      on.insert(table).values(values).onDuplicateKeyUpdate({ set }),
    alone: (run) => retryingDeadlocks(async () => await run()),
    // VALUES(col) is deprecated on MySQL 8.0.20+ but still there, and MariaDB has no other way.
    inserted: (column) => sql`values(${sql.identifier(column.name)})`,
    greatest: (a, b) => sql`greatest(${a}, ${b})`,
    atomic: (statements: Statements) =>
      db.transaction(async (tx) => {
        for (const statement of statements(tx)) await statement
      }),
    increment: (counter, before) =>
      db.transaction(async (tx) => {
        for (const statement of before(tx)) await statement
        const [result] = (await tx
          .insert(counter.table)
          .values({ ...counter.key, [counter.property]: sql`last_insert_id(1)` })
          .onDuplicateKeyUpdate({
            set: { [counter.property]: sql`last_insert_id(${counter.column} + 1)` },
          })) as WriteResult
        return Number(result.insertId)
      }),
    prepare: (_name, query) => {
      const prepared = query.prepare()
      return async (values: Row) => await prepared.execute!(values)
    },
    concurrency: {
      kind: "locks",
      // READ COMMITTED, not InnoDB's REPEATABLE READ: a plain read after the lock sees what
      // committed while this transaction waited for it, not a snapshot from before.
      transaction: (run) => db.transaction(run, { isolationLevel: "read committed" }),
      lock: (query) => query.for("update"),
      isUniqueViolation: (error) => safeErrorCode(error) === "ER_DUP_ENTRY",
    },
  }
}
