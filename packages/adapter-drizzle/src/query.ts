/**
 * The part of a Drizzle database the adapter uses. Drizzle's PostgreSQL, MySQL and SQLite
 * databases build these queries with the same methods at run time, but type them apart (each
 * with its own table and column types); this is their common shape, so the methods of the
 * contract are written once. What differs between the dialects (`RETURNING`, upserts,
 * transactions) is in `dialect/`.
 */
import type { Column, SQL, Table } from "drizzle-orm"

/** A row as a query returns it, keyed by the names of the selected fields. */
export type Row = Record<string, unknown>

/** What a query selects or returns: a name for each column or expression. */
export type Fields = Record<string, Column | SQL | SQL.Aliased>

/** A query ready to run: awaiting it runs it. SQLite's synchronous drivers run it with `run`/`all`. */
export interface Query<R = unknown> extends PromiseLike<R> {
  run?(): unknown
  all?(): Row[]
}

export interface SelectQuery extends Query<Row[]> {
  from(table: Table | SQL | SQL.Aliased): SelectQuery
  innerJoin(table: Table, on: SQL | undefined): SelectQuery
  where(condition: SQL | undefined): SelectQuery
  orderBy(...order: (Column | SQL)[]): SelectQuery
  limit(count: number): SelectQuery
  offset(count: number): SelectQuery
  as(alias: string): SQL.Aliased & Record<string, Column>
  toSQL(): { sql: string }
  /** The query as SQL, to use inside another (`exists(…)`). */
  getSQL(): SQL
  /** PostgreSQL's builder takes a statement name, the others none. */
  prepare(name?: string): PreparedRead
  /** A locking read (`FOR UPDATE`…): PostgreSQL and MySQL only. */
  for(strength: "update" | "no key update"): SelectQuery
}

/** A prepared select: PostgreSQL and MySQL `execute` it, SQLite `all`s it. */
export interface PreparedRead {
  execute?(values: Row): PromiseLike<Row[]>
  all(values: Row): Row[] | PromiseLike<Row[]>
}

export interface WriteQuery extends Query {
  where(condition: SQL | undefined): WriteQuery
  returning(fields: Fields): Query<Row[]>
  onConflictDoUpdate(config: { target: Column | Column[]; set: Row }): WriteQuery
  onConflictDoNothing(config?: { target?: Column | Column[] }): WriteQuery
  onDuplicateKeyUpdate(config: { set: Row }): WriteQuery
}

export interface QueryDb {
  select(fields: Fields): SelectQuery
  insert(table: Table): {
    values(values: Row | Row[]): WriteQuery
    /** `INSERT … SELECT`: `query` selects every column of the table, in the table's order. */
    select(query: SelectQuery): WriteQuery
  }
  update(table: Table): { set(values: Row): WriteQuery }
  delete(table: Table): WriteQuery
}
