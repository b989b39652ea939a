/**
 * Which dialect a Drizzle database speaks, read from Drizzle's own class names (`entityKind`)
 * rather than `instanceof`: no dialect's module is imported (an app on D1 does not bundle the
 * PostgreSQL and MySQL builders), and a database made by another copy of drizzle-orm is
 * recognised too.
 */
import { entityKind } from "drizzle-orm"
import type { Dialect } from "./dialect.js"
import { mysqlDialect } from "./mysql.js"
import { postgresDialect } from "./postgres.js"
import { sqliteDialect } from "./sqlite.js"

const dialects: Record<string, (db: unknown) => Dialect> = {
  PgDatabase: postgresDialect,
  MySqlDatabase: mysqlDialect,
  BaseSQLiteDatabase: sqliteDialect,
}

/** The dialect of `db`, or `undefined` when it is no Drizzle database. */
export function dialectOf(db: unknown): Dialect | undefined {
  for (let proto = db && Object.getPrototypeOf(db); proto; proto = Object.getPrototypeOf(proto)) {
    const kind = (proto.constructor as { [entityKind]?: unknown } | undefined)?.[entityKind]
    const make = typeof kind === "string" ? dialects[kind] : undefined
    if (make) return make(db)
  }
  return undefined
}
