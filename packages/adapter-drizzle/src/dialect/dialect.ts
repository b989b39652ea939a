/**
 * What differs between Drizzle's dialects, behind one interface: how a write returns the rows
 * it touched (`RETURNING`, or MySQL's read around the write), how a key conflict becomes an
 * update, and how several statements run as one (a transaction, or a batch on D1 and libSQL).
 * Every method of the contract is written once, against this.
 */
import type { Column, SQL, Table } from "drizzle-orm"
import type { Fields, Query, QueryDb, Row, SelectQuery, WriteQuery } from "../query.js"

export type DialectName = "pg" | "mysql" | "sqlite"

/** The queries of one atomic step, made on the connection (or transaction) given. */
export type Statements = (db: QueryDb) => WriteQuery[]

/** A counter column and the row it counts for (`key`: the primary key's property and value). */
export interface Counter {
  table: Table
  key: Row
  target: Column
  column: Column
  /** The counter's property name in `table` (how inserts name it). */
  property: string
}

/**
 * How a step that reads before it writes (the last owner of an organization, a user's limit)
 * keeps its rule when requests race:
 *
 * - `locks` (PostgreSQL, MySQL): an interactive transaction at READ COMMITTED that first locks
 *   the row the rule is about; every statement after the lock sees what the transactions before
 *   it committed, and no other such step runs until this one ends.
 * - `serial` (SQLite): writes are serial, so the rule goes in the statements' own conditions,
 *   run as one step (a batch on D1 and libSQL, which have no interactive transactions).
 */
export type Concurrency = Locks | SerialWrites

export interface Locks {
  readonly kind: "locks"
  transaction<T>(run: (tx: QueryDb) => Promise<T>): Promise<T>
  /** `query` locking the rows it reads until the transaction ends. */
  lock(query: SelectQuery): SelectQuery
  /** Whether `error` is a unique key's refusal. */
  isUniqueViolation(error: unknown): boolean
}

export interface SerialWrites {
  readonly kind: "serial"
  /** Runs the queries in order as one step; the rows each returned (all must return rows). */
  rows(statements: (db: QueryDb) => Query<Row[]>[]): Promise<Row[][]>
}

export interface Dialect {
  readonly name: DialectName
  readonly db: QueryDb
  /**
   * Deletes the rows `where` finds and returns `fields` of the ones this call deleted: of two
   * concurrent calls, a row goes to exactly one.
   */
  deleteReturning(table: Table, where: SQL, fields: Fields): Promise<Row[]>
  /** Updates the rows `where` finds; `fields` of them as updated (none when none matched). */
  updateReturning(table: Table, set: Row, where: SQL, fields: Fields): Promise<Row[]>
  /** Inserts `values`, or, when the row with that primary key (`target`) exists, sets `set`. */
  upsert(db: QueryDb, table: Table, values: Row, target: Column[], set: Row): WriteQuery
  /**
   * Runs one statement made outside a transaction as its own unit of work: MySQL runs it again
   * when InnoDB rolls it back as a deadlock's victim (concurrent upserts of one key).
   */
  alone<T>(run: () => PromiseLike<T>): Promise<T>
  /** In an upsert's `set`: the value the insert brought for `column`. */
  inserted(column: Column): SQL
  /** The larger of two values (`GREATEST`, or SQLite's two-argument `max`). */
  greatest(a: Column | SQL, b: Column | SQL): SQL
  /** Runs the statements in order as one: all of them, or none. */
  atomic(statements: Statements): Promise<void>
  /**
   * Adds 1 to the counter of the row with key `counter.key` (made with 1 when missing), after
   * running `before` in the same step; returns the new value, this call's own.
   */
  increment(counter: Counter, before: Statements): Promise<number>
  /** `query` prepared once, run with `values` for its `sql.placeholder`s. */
  prepare(name: string, query: SelectQuery): (values: Row) => Promise<Row[]>
  readonly concurrency: Concurrency
}
