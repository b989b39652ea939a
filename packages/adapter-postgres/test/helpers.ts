/**
 * Test databases: an in-memory PGlite (always) and the PostgreSQL server named by
 * `DATABASE_URL` (when set). Each server database lives in its own schema with a random name,
 * reached through the pool's `search_path`, and is dropped at teardown.
 */
import { PGlite } from "@electric-sql/pglite"
import pg from "pg"
import { migrate, PostgresAdapter, type Queryable } from "../src/index.js"

export const databaseUrl = process.env.DATABASE_URL

export interface TestDatabase {
  client: Queryable
  /** Opens another connection pool on the same database (and schema). PGlite: the same client. */
  another(): Queryable
  /** SQL run directly, bypassing the adapter (to inspect what is stored). */
  sql(text: string, params?: unknown[]): Promise<Record<string, unknown>[]>
  /** Runs `fn` on one dedicated connection (session settings, locks held across statements). */
  oneConnection<T>(fn: (connection: Queryable) => Promise<T>): Promise<T>
  close(): Promise<void>
}

export interface Backend {
  name: "pglite" | "postgres"
  create(): Promise<TestDatabase>
}

/** A freshly initialised PGlite data directory, made once per test process. */
let emptyDataDir: Promise<Blob> | undefined

/**
 * A new, empty in-memory PGlite: a copy of one freshly initialised data directory rather than
 * a new `initdb` each time. The copy is the same empty cluster; starting from it costs a
 * quarter of an `initdb`, and the scenario files open one database per test.
 */
export async function emptyPglite(): Promise<PGlite> {
  emptyDataDir ??= (async () => {
    const first = new PGlite()
    await first.waitReady
    const dump = await first.dumpDataDir("none")
    await first.close()
    return dump
  })()
  const db = new PGlite({ loadDataDir: await emptyDataDir })
  await db.waitReady
  return db
}

export const pgliteBackend: Backend = {
  name: "pglite",
  async create() {
    const db = await emptyPglite()
    return {
      client: db,
      another: () => db,
      sql: async (text, params) =>
        (await db.query<Record<string, unknown>>(text, params as unknown[])).rows,
      oneConnection: (fn) => fn(db),
      close: async () => {
        if (!db.closed) await db.close()
      },
    }
  },
}

export const serverBackend: Backend = {
  name: "postgres",
  async create() {
    if (!databaseUrl) throw new Error("DATABASE_URL is not set")
    const schema = `latchkey_test_${crypto.randomUUID().replaceAll("-", "")}`
    const admin = new pg.Client({ connectionString: databaseUrl })
    await admin.connect()
    await admin.query(`CREATE SCHEMA ${schema}`)
    await admin.end()
    const pools: pg.Pool[] = []
    const open = () => {
      const pool = new pg.Pool({
        connectionString: databaseUrl,
        options: `-c search_path=${schema}`,
        max: 10,
        connectionTimeoutMillis: 5000,
      })
      // An idle client killed by the server (pg_terminate_backend tests) must not crash the run.
      pool.on("error", () => {})
      pools.push(pool)
      return pool
    }
    const main = open()
    let closed = false
    return {
      client: main,
      another: open,
      sql: async (text, params) => (await main.query(text, params)).rows,
      async oneConnection(fn) {
        const connection = new pg.Client({
          connectionString: databaseUrl,
          options: `-c search_path=${schema}`,
        })
        await connection.connect()
        try {
          return await fn(connection)
        } finally {
          await connection.end()
        }
      },
      async close() {
        if (closed) return
        closed = true
        await Promise.all(pools.map((p) => p.end().catch(() => {})))
        const cleanup = new pg.Client({ connectionString: databaseUrl })
        await cleanup.connect()
        await cleanup.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
        await cleanup.end()
      },
    }
  },
}

/** The backends to run: PGlite always, the server when `DATABASE_URL` is set. */
export const backends: Backend[] = databaseUrl ? [pgliteBackend, serverBackend] : [pgliteBackend]

/**
 * The tables as `@auth/pg-adapter` documents them (no foreign keys, no UNIQUE, VARCHAR(255)
 * names): the least this adapter must work with.
 */
export const authJsSchema = `
CREATE TABLE verification_token (
  identifier TEXT NOT NULL,
  expires TIMESTAMPTZ NOT NULL,
  token TEXT NOT NULL,
  PRIMARY KEY (identifier, token)
);
CREATE TABLE accounts (
  id SERIAL,
  "userId" INTEGER NOT NULL,
  type VARCHAR(255) NOT NULL,
  provider VARCHAR(255) NOT NULL,
  "providerAccountId" VARCHAR(255) NOT NULL,
  refresh_token TEXT,
  access_token TEXT,
  expires_at BIGINT,
  id_token TEXT,
  scope TEXT,
  session_state TEXT,
  token_type TEXT,
  PRIMARY KEY (id)
);
CREATE TABLE sessions (
  id SERIAL,
  "userId" INTEGER NOT NULL,
  expires TIMESTAMPTZ NOT NULL,
  "sessionToken" VARCHAR(255) NOT NULL,
  PRIMARY KEY (id)
);
CREATE TABLE users (
  id SERIAL,
  name VARCHAR(255),
  email VARCHAR(255),
  "emailVerified" TIMESTAMPTZ,
  image TEXT,
  PRIMARY KEY (id)
);
`

/** Runs a multi-statement script on a test database. */
export async function runSql(db: TestDatabase, script: string) {
  const exec = (db.client as { exec?: (sql: string) => Promise<unknown> }).exec
  if (exec) await exec.call(db.client, script)
  else await db.client.query(script)
}

/**
 * An empty database for the next test. PGlite's previous one is emptied in place (its schema
 * dropped and made again): opening a PGlite costs several times what a test of the scenario
 * suites does, and they make one per test. One the test closed, or left in a state where the
 * reset fails (an aborted transaction), is replaced. A server's is a new schema, as before.
 */
async function nextDatabase(backend: Backend, previous: TestDatabase | undefined) {
  if (previous && backend.name === "pglite" && !(previous.client as PGlite).closed) {
    try {
      await runSql(previous, "DROP SCHEMA public CASCADE; CREATE SCHEMA public")
      return previous
    } catch {}
  }
  await previous?.close()
  return backend.create()
}

/**
 * A fresh, migrated `PostgresAdapter` on `backend` for each call, the previous database closed:
 * the shared scenario suites (core/test/…-scenarios.ts) ask for a clean adapter per test.
 */
export function freshAdapters(backend: Backend) {
  let db: TestDatabase | undefined
  return {
    async adapter() {
      db = await nextDatabase(backend, db)
      await migrate(db.client)
      return PostgresAdapter(db.client)
    },
    /** The database behind the last adapter made (to inspect what is stored). */
    database(): TestDatabase {
      if (!db) throw new Error("freshAdapters: no adapter made yet")
      return db
    },
    close: async () => await db?.close(),
  }
}
