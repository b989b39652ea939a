/**
 * The engines and drivers the adapter is tested on, each a fresh, empty database with
 * Latchkey's tables created from the schema modules by drizzle-kit (what an app's migrations
 * hold): better-sqlite3, libSQL on a file, D1 in Miniflare (workerd), PGlite always; the
 * PostgreSQL server when `DATABASE_URL` is set and the MySQL/MariaDB server when `MYSQL_URL` is
 * (each test database in its own schema or database, dropped at teardown).
 */
import { mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { PGlite } from "@electric-sql/pglite"
import { createClient } from "@libsql/client"
import Database from "better-sqlite3"
import { type SQL, sql } from "drizzle-orm"
import { drizzle as betterSqlite } from "drizzle-orm/better-sqlite3"
import { drizzle as d1 } from "drizzle-orm/d1"
import { drizzle as libsql } from "drizzle-orm/libsql"
import { drizzle as mysql2 } from "drizzle-orm/mysql2"
import { drizzle as nodePostgres } from "drizzle-orm/node-postgres"
import { drizzle as pglite } from "drizzle-orm/pglite"
import { Miniflare } from "miniflare"
import { createConnection, createPool } from "mysql2/promise"
import pg from "pg"
import * as mysqlSchema from "../src/schema/mysql.js"
import * as pgSchema from "../src/schema/pg.js"
import * as sqliteSchema from "../src/schema/sqlite.js"
import { ResilientD1 } from "./d1-binding.js"

export const databaseUrl = process.env.DATABASE_URL
export const mysqlUrl = process.env.MYSQL_URL

export type DialectName = "pg" | "mysql" | "sqlite"

export const schemas: Record<DialectName, Record<string, unknown>> = {
  pg: pgSchema,
  mysql: mysqlSchema,
  sqlite: sqliteSchema,
}

export interface TestDatabase {
  /** The Drizzle database (made with the schema, as an app makes it). */
  db: unknown
  dialect: DialectName
  /** Runs SQL directly, bypassing the adapter; the rows it returns. */
  query(statement: SQL): Promise<Record<string, unknown>[]>
  /**
   * Empties every table, keeping the tables (server engines that reuse a database: making one
   * costs far more than emptying it).
   */
  empty?(): Promise<void>
  close(): Promise<void>
}

export interface Engine {
  name: string
  dialect: DialectName
  /** A fresh database; with `tables` (default), Latchkey's tables made by drizzle-kit's DDL. */
  create(options?: { tables?: boolean }): Promise<TestDatabase>
}

/** drizzle-kit's DDL for `schema` on an empty database: the statements a first migration holds. */
export async function migrationFor(
  dialect: DialectName,
  schema: Record<string, unknown>,
  from: Record<string, unknown> = {},
): Promise<string[]> {
  const kit = await import("drizzle-kit/api")
  if (dialect === "pg") {
    const statements = await kit.generateMigration(
      kit.generateDrizzleJson(from),
      kit.generateDrizzleJson(schema),
    )
    // drizzle-kit names the default schema in foreign keys; each test database is a schema of
    // its own, reached through the search_path.
    return statements.map((statement) => statement.replaceAll('"public".', ""))
  }
  if (dialect === "mysql") {
    return await kit.generateMySQLMigration(
      await kit.generateMySQLDrizzleJson(from),
      await kit.generateMySQLDrizzleJson(schema),
    )
  }
  return await kit.generateSQLiteMigration(
    await kit.generateSQLiteDrizzleJson(from),
    await kit.generateSQLiteDrizzleJson(schema),
  )
}

/** Runs each statement of a migration on `database`. */
export async function migrateTo(database: TestDatabase, statements: string[]): Promise<void> {
  for (const statement of statements) await database.query(sql.raw(statement))
}

async function withTables(database: TestDatabase, tables = true): Promise<TestDatabase> {
  if (tables)
    await migrateTo(database, await migrationFor(database.dialect, schemas[database.dialect]))
  return database
}

type SqliteDb = { all(q: SQL): unknown; run(q: SQL): unknown }
type ExecuteDb = { execute(q: SQL): Promise<unknown> }

/** SQLite's `all` fails on a statement without rows on some drivers: `run` those. */
function sqliteQuery(db: unknown) {
  return async (statement: SQL) => {
    const text = (statement as unknown as { queryChunks: { value?: string[] }[] }).queryChunks
      .map((c) => c.value?.join("") ?? "")
      .join("")
    const sqlite = db as SqliteDb
    if (/^\s*(select|with|pragma)/i.test(text))
      return (await sqlite.all(statement)) as Record<string, unknown>[]
    await sqlite.run(statement)
    return []
  }
}

/** PostgreSQL drivers answer `execute` with `{ rows }`. */
const pgQuery = (db: unknown) => async (q: SQL) =>
  ((await (db as ExecuteDb).execute(q)) as { rows: Record<string, unknown>[] }).rows

const scratch = () => mkdtempSync(join(tmpdir(), "latchkey-drizzle-"))
const randomName = (prefix: string) => `${prefix}_${crypto.randomUUID().replaceAll("-", "")}`

export const betterSqlite3Engine: Engine = {
  name: "better-sqlite3",
  dialect: "sqlite",
  async create(options) {
    const client = new Database(":memory:")
    const db = betterSqlite(client, { schema: sqliteSchema })
    return withTables(
      { db, dialect: "sqlite", query: sqliteQuery(db), close: async () => void client.close() },
      options?.tables,
    )
  },
}

export const libsqlEngine: Engine = {
  name: "libSQL (file)",
  dialect: "sqlite",
  async create(options) {
    const dir = scratch()
    const client = createClient({ url: `file:${join(dir, "auth.db")}` })
    const db = libsql(client, { schema: sqliteSchema })
    return withTables(
      {
        db,
        dialect: "sqlite",
        query: sqliteQuery(db),
        close: async () => {
          client.close()
          rmSync(dir, { recursive: true, force: true })
        },
      },
      options?.tables,
    )
  },
}

export const d1Engine: Engine = {
  name: "D1 (Miniflare)",
  dialect: "sqlite",
  async create(options) {
    const mf = new Miniflare({
      modules: true,
      script: "export default { fetch: () => new Response(null, { status: 404 }) }",
      d1Databases: { DB: crypto.randomUUID() },
    })
    const binding = new ResilientD1(mf, "DB") as unknown as Parameters<typeof d1>[0]
    const db = d1(binding, { schema: sqliteSchema })
    return withTables(
      { db, dialect: "sqlite", query: sqliteQuery(db), close: () => mf.dispose() },
      options?.tables,
    )
  },
}

export const pgliteEngine: Engine = {
  name: "PGlite",
  dialect: "pg",
  async create(options) {
    const client = new PGlite()
    await client.waitReady
    const db = pglite(client, { schema: pgSchema })
    const query = pgQuery(db)
    return withTables(
      {
        db,
        dialect: "pg",
        query,
        close: async () => {
          if (!client.closed) await client.close()
        },
      },
      options?.tables,
    )
  },
}

export const postgresEngine: Engine = {
  name: "PostgreSQL (pg)",
  dialect: "pg",
  async create(options) {
    if (!databaseUrl) throw new Error("DATABASE_URL is not set")
    const schema = randomName("latchkey_drizzle")
    const admin = new pg.Client({ connectionString: databaseUrl })
    await admin.connect()
    await admin.query(`CREATE SCHEMA ${schema}`)
    await admin.end()
    const pool = new pg.Pool({
      connectionString: databaseUrl,
      options: `-c search_path=${schema}`,
      max: 10,
    })
    pool.on("error", () => {})
    const db = nodePostgres(pool, { schema: pgSchema })
    const query = pgQuery(db)
    return withTables(
      {
        db,
        dialect: "pg",
        query,
        async close() {
          await pool.end().catch(() => {})
          const cleanup = new pg.Client({ connectionString: databaseUrl })
          await cleanup.connect()
          await cleanup.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
          await cleanup.end()
        },
      },
      options?.tables,
    )
  },
}

export const mysqlEngine: Engine = {
  name: "MariaDB (mysql2)",
  dialect: "mysql",
  async create(options) {
    if (!mysqlUrl) throw new Error("MYSQL_URL is not set")
    const database = randomName("latchkey_drizzle")
    await onServer(`CREATE DATABASE ${database}`)
    const url = new URL(mysqlUrl)
    url.pathname = `/${database}`
    // Idle connections close soon: the core's suites make hundreds of databases per run.
    const pool = createPool({ uri: url.href, connectionLimit: 10, maxIdle: 1, idleTimeout: 1000 })
    const db = mysql2(pool, { schema: mysqlSchema, mode: "default" })
    const query = async (q: SQL) => {
      const [rows] = (await (db as ExecuteDb).execute(q)) as [unknown]
      return Array.isArray(rows) ? (rows as Record<string, unknown>[]) : []
    }
    return withTables(
      {
        db,
        dialect: "mysql",
        query,
        async empty() {
          // One connection: the foreign-key switch holds per session.
          const connection = await pool.getConnection()
          try {
            await connection.query("SET FOREIGN_KEY_CHECKS = 0")
            const [tables] = await connection.query("SHOW TABLES")
            for (const row of tables as Record<string, string>[]) {
              await connection.query(`DELETE FROM \`${Object.values(row)[0]}\``)
            }
            await connection.query("SET FOREIGN_KEY_CHECKS = 1")
          } finally {
            connection.release()
          }
        },
        async close() {
          await pool.end()
          await onServer(`DROP DATABASE IF EXISTS ${database}`)
        },
      },
      options?.tables,
    )
  },
}

/** One statement on the MySQL server, on a connection of its own. */
async function onServer(statement: string): Promise<void> {
  const connection = await createConnection({ uri: mysqlUrl })
  try {
    await connection.query(statement)
  } finally {
    await connection.end()
  }
}

/** The engines to run: the embedded ones always, the servers when their URL is set. */
export const engines: Engine[] = [
  betterSqlite3Engine,
  libsqlEngine,
  d1Engine,
  pgliteEngine,
  ...(databaseUrl ? [postgresEngine] : []),
  ...(mysqlUrl ? [mysqlEngine] : []),
]
