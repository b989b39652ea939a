/**
 * The Drizzle adapter standing in for the core's `MemoryAdapter`, so the core's own flow suites
 * (password accounts, two-factor, the account API, the claim, email links) run through `Auth()`
 * on a real database: every `MemoryAdapter()` call gets a fresh, empty database with Latchkey's
 * tables (on a server, the oldest of the last few, emptied). `MemoryAdapter()` is synchronous:
 * on better-sqlite3 the database is made at once; on a server the adapter's methods wait for
 * theirs.
 */
import { type Adapter, withAdapterFeature } from "@latchkey/core/adapters"
import Database from "better-sqlite3"
import { drizzle as betterSqlite } from "drizzle-orm/better-sqlite3"
import { DrizzleAdapter } from "../src/index.js"
import { type Engine, migrationFor, schemas, type TestDatabase } from "./engines.js"

/** Server databases kept open: no test uses more adapters at once. */
const OPEN = 6

/** A module replacing `@latchkey/core/adapters/memory` with fresh Drizzle adapters. */
export async function drizzleStandIn(engine: Engine) {
  const opened: Promise<TestDatabase>[] = []
  // One database made ahead: a test measuring time around its first call (a link's lifetime)
  // does not measure a CREATE DATABASE.
  let next = engine.dialect !== "sqlite" ? engine.create() : undefined
  const make = (): Adapter => {
    if (!next) return onBetterSqlite3(ddl)
    const database = next
    opened.push(database)
    // The oldest database, emptied, is the next one: emptying costs a fraction of making one.
    const oldest = opened.length > OPEN ? opened.shift() : undefined
    next = oldest ? oldest.then(reuse) : engine.create()
    const ready = database.then(({ db }) => DrizzleAdapter(db, { schema: schemas[engine.dialect] }))
    return waitingFor(ready, methods)
  }
  const reuse = async (database: TestDatabase): Promise<TestDatabase> => {
    if (!database.empty) {
      await database.close()
      return engine.create()
    }
    await database.empty()
    return database
  }
  const ddl = await migrationFor("sqlite", schemas.sqlite)
  const methods = Object.keys(onBetterSqlite3(ddl))
  return {
    MemoryAdapter: make,
    /** Drops the server databases made so far. */
    closeAll: async () => {
      const all = next ? [...opened, next] : opened
      await Promise.all(all.map(async (db) => (await db).close()))
    },
  }
}

function onBetterSqlite3(ddl: string[]): Adapter {
  const client = new Database(":memory:")
  for (const statement of ddl) client.exec(statement)
  return DrizzleAdapter(betterSqlite(client), { schema: schemas.sqlite })
}

/**
 * An adapter whose methods (the names given) each wait for `ready` first. A Latchkey adapter,
 * as the one it waits for: it carries the adapter feature.
 */
function waitingFor(ready: Promise<Adapter>, methods: string[]): Adapter {
  const waiting = Object.fromEntries(
    methods.map((name) => [
      name,
      async (...args: unknown[]) =>
        await (ready as Promise<Record<string, (...a: unknown[]) => unknown>>).then((a) =>
          a[name]!(...args),
        ),
    ]),
  ) as Adapter
  return withAdapterFeature(waiting)
}
