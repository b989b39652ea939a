/**
 * The demo's database: embedded PGlite (Postgres compiled to WebAssembly) in `.data/pglite`,
 * created and migrated on first use, so `npm run demo` needs no database server. The schema is
 * `@latchkey/adapter-postgres`'s (that of `@auth/pg-adapter`, plus the password hashes of the
 * `Password` provider) and two demo tables: the nickname shown on the account page, and the dev
 * mailbox (the mails the demo "sends", see `dev-mailbox.ts`).
 */
import { mkdirSync } from "node:fs"
import { resolve } from "node:path"
import { PGlite } from "@electric-sql/pglite"
import { migrate, PostgresAdapter, type Queryable } from "@latchkey/adapter-postgres"

const demoSchema = `
CREATE TABLE IF NOT EXISTS demo_profiles (
  "userId" INTEGER PRIMARY KEY REFERENCES users ON DELETE CASCADE,
  nickname TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS dev_mailbox (
  id SERIAL PRIMARY KEY,
  recipient TEXT NOT NULL,
  subject TEXT NOT NULL,
  url TEXT,
  expires TIMESTAMPTZ,
  sent_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
-- Databases made before the password provider: notices carry no link.
ALTER TABLE dev_mailbox ADD COLUMN IF NOT EXISTS purpose TEXT;
ALTER TABLE dev_mailbox ALTER COLUMN url DROP NOT NULL;
ALTER TABLE dev_mailbox ALTER COLUMN expires DROP NOT NULL;`

let ready: Promise<PGlite> | undefined

/** The migrated database; opened once per process. */
export function database(): Promise<PGlite> {
  ready ??= (async () => {
    // `scripts/start.mjs` sets the folder; the default is relative to the working directory.
    const dir = resolve(process.env.LATCHKEY_DATA_DIR ?? ".data/pglite")
    mkdirSync(dir, { recursive: true })
    const db = new PGlite(dir)
    await migrate(db)
    await db.exec(demoSchema)
    return db
  })()
  return ready
}

/**
 * Queries wait for the migrations, so the adapter can be created at import time. `exec` and
 * `transaction` are PGlite's: the adapter then knows the database is embedded (no query timeout:
 * a slow first query on a busy machine is not an unreachable server) and runs its transactions
 * with PGlite's own, which keeps other queries out of them.
 */
const client: Queryable & Pick<PGlite, "exec" | "transaction"> = {
  query: async (text, params) => (await database()).query(text, params),
  exec: async (sql, options) => (await database()).exec(sql, options),
  transaction: async (fn) => (await database()).transaction(fn),
}

export const adapter = /*#__PURE__*/ PostgresAdapter(client)
