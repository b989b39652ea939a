/**
 * The database and the Latchkey config an operator command works on: `DATABASE_URL` is a
 * PostgreSQL URL (`postgres://…`, through `pg`) or a PGlite data directory (`file:///…`).
 */
import type { AuthConfig } from "@latchkey/core"
import { PostgresAdapter } from "../adapter.js"
import type { Queryable } from "../client.js"
import type { CliIo } from "./index.js"

export interface OperatorDatabase {
  /** A config for `@latchkey/core/admin`: this database as adapter, nothing else. */
  readonly config: AuthConfig
  close(): Promise<void>
}

/** Opens `DATABASE_URL`; throws a message to print when it is missing or not understood. */
export async function openDatabase(io: CliIo): Promise<OperatorDatabase> {
  const url = io.env.DATABASE_URL
  if (!url) throw new Error("set DATABASE_URL (postgres://… or file:///path/to/pglite-data)")
  const { client, close } = await connect(url)
  const config: AuthConfig = {
    adapter: PostgresAdapter(client),
    providers: [],
    // Nothing is signed or encrypted by these commands; the config only needs a valid secret.
    secret: crypto.randomUUID() + crypto.randomUUID(),
    trustHost: true,
    logger: { warn: () => {}, debug: () => {} },
  }
  if (io.env.REDIS_URL) {
    io.err(
      "Note: REDIS_URL is set, but this command reaches only the database. If the app keeps session revocation in Redis (config.store), end JWT sessions from the app: endAllSessions(config, userId) from @latchkey/core/admin.",
    )
  }
  return { config, close }
}

async function connect(url: string): Promise<{ client: Queryable; close(): Promise<void> }> {
  if (/^postgres(ql)?:\/\//.test(url)) {
    const { default: pg } = await import("pg")
    const pool = new pg.Pool({ connectionString: url, max: 2 })
    return { client: pool, close: () => pool.end() }
  }
  if (url.startsWith("file://")) {
    const { PGlite } = await import("@electric-sql/pglite")
    // PGlite reads `file://<path>` as a data directory on the file system.
    const db = new PGlite(url)
    await db.waitReady
    return { client: db, close: () => db.close() }
  }
  throw new Error("DATABASE_URL must start with postgres://, postgresql:// or file://")
}
