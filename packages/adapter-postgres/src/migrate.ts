/**
 * Schema migrations: versioned SQL files in `../migrations/NNNN_name.sql`, applied in order,
 * each once. `latchkey_migrations` records the versions applied in the current schema.
 */
import { type Queryable, runScript, type ScriptRunner, transaction } from "./client.js"
import { toAdapterError } from "./errors.js"

/** A migration shipped with this package. */
export interface Migration {
  version: number
  name: string
  sql: string
}

export interface MigrateOptions {
  /**
   * Longest time, in ms, to wait for the whole migration, including the wait for another
   * instance that holds the migration lock. Default 60 000. Not applied to an embedded PGlite
   * (in-process: a slow migration there means a busy machine).
   */
  timeoutMs?: number
}

export interface MigrateResult {
  /** Versions applied by this call (empty when the schema was up to date). */
  applied: number[]
}

const migrationFiles = [
  "0001_init.sql",
  "0002_authenticators.sql",
  "0004_revocation.sql",
  "0005_account.sql",
  "0006_two_factor.sql",
  "0007_password.sql",
  "0008_user_created_at.sql",
  "0009_organizations.sql",
] as const

/** Reads the migration files shipped in the package (Node.js only, like `pg` itself). */
export async function loadMigrations(): Promise<Migration[]> {
  // Imported here, not at the top: the adapter itself runs without `node:fs`.
  const { readFile } = await import("node:fs/promises")
  return await Promise.all(
    migrationFiles.map(async (file) => {
      const [, version = "", name = ""] = /^(\d+)_(.+)\.sql$/.exec(file) ?? []
      const sql = await readFile(new URL(`../migrations/${file}`, import.meta.url), "utf8")
      return { version: Number(version), name, sql }
    }),
  )
}

/**
 * Brings the schema up to date: creates the Auth.js tables (plus Latchkey's indexes and
 * `authenticators` table) in the connection's current schema. Idempotent: a second run applies
 * nothing. Safe when several app instances start at once:
 *
 * - everything runs in ONE transaction on ONE connection (for a `pg` `Pool`, a client checked
 *   out with `pool.connect()`), so a failed migration leaves nothing half-applied;
 * - the transaction first takes `pg_advisory_xact_lock`, keyed by the current schema: other
 *   instances wait on it, then find the versions recorded and apply nothing. The lock is
 *   released at commit or rollback, even if the process dies.
 *
 * PGlite supports advisory locks, but it is a single in-process connection: its
 * `transaction()` already serialises callers, and the lock is then simply uncontended.
 *
 * On an existing `@auth/pg-adapter` database the tables are kept with their data (every
 * statement is `IF NOT EXISTS`); only the missing indexes and the `authenticators` table are
 * added. Keep `hashSessionTokens: false` there.
 *
 * Fails with `AdapterError` (method `migrate`) on any error or timeout.
 */
export async function migrate(
  client: Queryable,
  options: MigrateOptions = {},
): Promise<MigrateResult> {
  const timeoutMs = options.timeoutMs ?? 60_000
  try {
    const migrations = await loadMigrations()
    return await transaction(client, timeoutMs, (connection) => apply(connection, migrations))
  } catch (error) {
    throw toAdapterError("migrate", error)
  }
}

async function apply(connection: ScriptRunner, migrations: Migration[]): Promise<MigrateResult> {
  // Keyed by schema: migrating two schemas of one database (tests, tenants) does not serialise.
  await connection.query(
    "SELECT pg_advisory_xact_lock(hashtext('latchkey_migrations:' || current_schema()))",
  )
  await runScript(
    connection,
    `CREATE TABLE IF NOT EXISTS latchkey_migrations (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at TIMESTAMPTZ NOT NULL DEFAULT now()
    )`,
  )
  const { rows } = await connection.query("SELECT version FROM latchkey_migrations")
  const done = new Set(rows.map((row) => Number((row as { version: unknown }).version)))
  const applied: number[] = []
  for (const migration of migrations) {
    if (done.has(migration.version)) continue
    await runScript(connection, migration.sql)
    await connection.query("INSERT INTO latchkey_migrations (version, name) VALUES ($1, $2)", [
      migration.version,
      migration.name,
    ])
    applied.push(migration.version)
  }
  return { applied }
}
