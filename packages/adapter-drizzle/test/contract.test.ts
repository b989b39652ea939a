/**
 * The adapter contract (`@latchkey/adapter-test`, concurrency cases included) on every engine
 * and driver: better-sqlite3, libSQL on a file, D1 in Miniflare, PGlite, and the PostgreSQL and
 * MariaDB servers when their URLs are set.
 */
import { runAdapterContract } from "@latchkey/adapter-test"
import { DrizzleAdapter } from "../src/index.js"
import { engines, schemas, type TestDatabase } from "./engines.js"

for (const engine of engines) {
  let database: TestDatabase | undefined
  runAdapterContract({
    name: `drizzle on ${engine.name}`,
    async adapter() {
      database = await engine.create()
      return DrizzleAdapter(database.db, { schema: schemas[engine.dialect] })
    },
    teardown: async () => await database?.close(),
    capabilities: { authenticators: true },
  })
}
