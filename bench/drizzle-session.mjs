// The database session read through Drizzle, on SQLite (better-sqlite3) and PostgreSQL (PGlite,
// and the server at DATABASE_URL): Latchkey's `DrizzleAdapter` beside `@auth/drizzle-adapter`
// and Better Auth's Drizzle adapter (its `findSession`, what its `getSession` runs), each on its
// own tables in a database of the same engine, and beside the bare statement (Latchkey's join,
// prepared once, on the driver itself). Every library reads one user's session by its token.
// Target: Latchkey ≥ 1.3× both peers. Contenders run in alternating rounds (bench/harness.mjs);
// the ratios are medians of same-round ratios.
import { DrizzleAdapter as AuthJsDrizzleAdapter } from "@auth/drizzle-adapter"
import { PGlite } from "@electric-sql/pglite"
import { DrizzleAdapter } from "@latchkey/adapter-drizzle"
import * as latchkeyPg from "@latchkey/adapter-drizzle/pg"
import * as latchkeySqlite from "@latchkey/adapter-drizzle/sqlite"
import { betterAuth } from "better-auth"
import { drizzleAdapter } from "better-auth/adapters/drizzle"
import Database from "better-sqlite3"
import * as kit from "drizzle-kit/api"
import { drizzle as betterSqlite } from "drizzle-orm/better-sqlite3"
import { drizzle as nodePostgres } from "drizzle-orm/node-postgres"
import { drizzle as pglite } from "drizzle-orm/pglite"
import { defineTables as authJsPgTables } from "../node_modules/@auth/drizzle-adapter/lib/pg.js"
import { defineTables as authJsSqliteTables } from "../node_modules/@auth/drizzle-adapter/lib/sqlite.js"
import { betterAuthTables } from "./better-auth-drizzle-schema.mjs"
import { fmt, printTable, roundRatio, runRounds } from "./harness.mjs"
import { pgSchemaPool } from "./pg-schema.mjs"

const SECRET = "bench-drizzle-secret-0123456789abcdef0123456789"
const EMAIL = "ada@example.com"
const inAMonth = () => new Date(Date.now() + 30 * 86_400_000)

/** drizzle-kit's DDL for `tables`, run on `db` (each engine's own way of running SQL). */
async function createTables(dialect, tables, run) {
  const statements =
    dialect === "sqlite"
      ? await kit.generateSQLiteMigration(
          await kit.generateSQLiteDrizzleJson({}),
          await kit.generateSQLiteDrizzleJson(tables),
        )
      : await kit.generateMigration(kit.generateDrizzleJson({}), kit.generateDrizzleJson(tables))
  for (const statement of statements) await run(statement.replaceAll('"public".', ""))
}

/** A user and a session through `adapter` (Auth.js's contract, which Latchkey's keeps). */
async function seed(adapter) {
  const user = await adapter.createUser({
    id: crypto.randomUUID(),
    email: EMAIL,
    emailVerified: null,
    name: "Ada",
  })
  const sessionToken = crypto.randomUUID() + crypto.randomUUID()
  await adapter.createSession({ sessionToken, userId: user.id, expires: inAMonth() })
  return sessionToken
}

async function latchkeyRead(db, schema) {
  const adapter = DrizzleAdapter(db, { schema })
  const token = await seed(adapter)
  return () => adapter.getSessionAndUser(token)
}

async function authJsRead(db) {
  const adapter = AuthJsDrizzleAdapter(db)
  const token = await seed(adapter)
  return () => adapter.getSessionAndUser(token)
}

async function betterAuthRead(db, provider) {
  const auth = betterAuth({
    secret: SECRET,
    baseURL: "http://localhost:3000",
    database: drizzleAdapter(db, { provider, schema: betterAuthTables(provider) }),
    logger: { disabled: true },
  })
  const ctx = await auth.$context
  const user = await ctx.internalAdapter.createUser({
    email: EMAIL,
    name: "Ada",
    emailVerified: false,
  })
  const { token } = await ctx.internalAdapter.createSession(user.id)
  return () => ctx.internalAdapter.findSession(token)
}

/** Each contender first reads the right user, so no row of the table reads nothing. */
async function checked(read) {
  const found = await read()
  if (found?.user?.email !== EMAIL) throw new Error("the session was not read")
  return read
}

async function sqliteContenders() {
  const open = () => new Database(":memory:")
  const [a, b, c] = [open(), open(), open()]
  await createTables("sqlite", latchkeySqlite, (s) => a.exec(s))
  await createTables("sqlite", authJsSqliteTables(), (s) => b.exec(s))
  await createTables("sqlite", betterAuthTables("sqlite"), (s) => c.exec(s))
  const latchkey = await checked(await latchkeyRead(betterSqlite(a), latchkeySqlite))
  const token = a.prepare('SELECT "sessionToken" FROM session').get().sessionToken
  const bare = a.prepare(
    'SELECT u.id, u.name, u.email, u."emailVerified", u.image, s."userId", s.expires FROM session s JOIN user u ON u.id = s."userId" WHERE s."sessionToken" = ?',
  )
  return {
    contenders: {
      "bare statement (better-sqlite3, prepared)": () => bare.get(token),
      "Latchkey DrizzleAdapter": latchkey,
      "@auth/drizzle-adapter": await checked(await authJsRead(betterSqlite(b))),
      "Better Auth (Drizzle adapter)": await checked(
        await betterAuthRead(betterSqlite(c), "sqlite"),
      ),
    },
    close: () => {
      for (const db of [a, b, c]) db.close()
    },
  }
}

async function postgresContenders(connect) {
  const [a, b, c] = await Promise.all([
    connect("latchkey"),
    connect("authjs"),
    connect("betterauth"),
  ])
  await createTables("pg", latchkeyPg, a.run)
  await createTables("pg", authJsPgTables(), b.run)
  await createTables("pg", betterAuthTables("pg"), c.run)
  const latchkey = await checked(await latchkeyRead(a.db, latchkeyPg))
  const [{ sessionToken: token }] = await a.rows('SELECT "sessionToken" FROM session')
  const bareText =
    'SELECT u.id, u.name, u.email, u."emailVerified", u.image, s."userId", s.expires FROM session s JOIN "user" u ON u.id = s."userId" WHERE s."sessionToken" = $1'
  return {
    contenders: {
      "bare statement (prepared)": () => a.prepared(bareText, [token]),
      "Latchkey DrizzleAdapter": latchkey,
      "@auth/drizzle-adapter": await checked(await authJsRead(b.db)),
      "Better Auth (Drizzle adapter)": await checked(await betterAuthRead(c.db, "pg")),
    },
    close: () => Promise.all([a, b, c].map((x) => x.close())),
  }
}

const pgliteDatabase = async () => {
  const client = new PGlite()
  await client.waitReady
  return {
    db: pglite(client),
    run: (s) => client.exec(s),
    rows: async (s) => (await client.query(s)).rows,
    prepared: (text, params) => client.query(text, params),
    close: () => client.close(),
  }
}

const serverDatabase = async (label) => {
  const { pool, close } = await pgSchemaPool(`drizzle_${label}`)
  return {
    db: nodePostgres(pool),
    run: (s) => pool.query(s),
    rows: async (s) => (await pool.query(s)).rows,
    prepared: (text, values) => pool.query({ name: "bench_bare_session_read", text, values }),
    close,
  }
}

export async function benchDrizzleSession() {
  const rows = []
  const measure = async (database, { contenders, close }) => {
    try {
      const { medians, rates } = await runRounds(contenders)
      const [bare, latchkey, authjs, betterauth] = Object.keys(contenders)
      for (const name of Object.keys(contenders)) {
        const vsAuthJs =
          name === latchkey ? `${roundRatio(rates, latchkey, authjs).toFixed(2)}×` : ""
        const vsBetterAuth =
          name === latchkey ? `${roundRatio(rates, latchkey, betterauth).toFixed(2)}×` : ""
        const ofBare = `${roundRatio(rates, name, bare).toFixed(2)}`
        rows.push([database, name, fmt(medians[name]), ofBare, vsAuthJs, vsBetterAuth])
      }
    } finally {
      await close()
    }
  }
  await measure("SQLite (better-sqlite3, in memory)", await sqliteContenders())
  await measure("PostgreSQL (PGlite, embedded)", await postgresContenders(pgliteDatabase))
  if (process.env.DATABASE_URL) {
    await measure("PostgreSQL server (pg Pool, loopback)", await postgresContenders(serverDatabase))
  }
  printTable(
    "Database session read through Drizzle (ops/s, median of interleaved rounds)",
    ["database", "reader", "reads/s", "÷ bare", "Latchkey ÷ Auth.js", "Latchkey ÷ Better Auth"],
    rows,
  )
  if (!process.env.DATABASE_URL)
    console.log("\n(DATABASE_URL unset: the PostgreSQL server rows are missing.)")
}
