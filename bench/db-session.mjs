// A database session read against the database's own round trip, on embedded PGlite and (when
// DATABASE_URL is set) the PostgreSQL server: a bare `SELECT $1`, the adapter's one query
// (`getSessionAndUser`), `getSession` (what a binding runs per page) and `Auth()` GET
// /auth/session. Contenders run in alternating rounds of sequential calls; each figure is the
// median of the rounds' p50 (and p99), so a neighbour's burst hits them alike.
// Target: the read at most 2× the bare round trip on the PostgreSQL server.
import { PGlite } from "@electric-sql/pglite"
import { migrate, PostgresAdapter } from "@latchkey/adapter-postgres"
import { Auth, getSession } from "@latchkey/core"
import { printTable, timeCalls } from "./harness.mjs"
import { pgSchemaPool } from "./pg-schema.mjs"
import { databaseSessionConfig, seedSession } from "./seed.mjs"

const SECRET = "bench-secret-0123456789abcdef0123456789abcdef"
const ROUND_MS = Number(process.env.BENCH_DB_ROUND_MS ?? 500)
const ROUNDS = Number(process.env.BENCH_DB_ROUNDS ?? 9)
const COOKIE = "authjs.session-token"

async function contenders(client) {
  await migrate(client)
  const adapter = PostgresAdapter(client)
  const { user, sessionToken } = await seedSession(adapter, `bench-${Date.now()}@example.com`)
  const config = databaseSessionConfig(adapter, SECRET)
  const headers = { cookie: `${COOKIE}=${sessionToken}` }
  const endpoint = async () =>
    (await Auth(new Request("http://localhost:3000/auth/session", { headers }), config)).json()
  // The framework has built the request before the binding asks for its session.
  const request = new Request("http://localhost:3000/", { headers })
  const page = async () => (await getSession(request, config)).session
  if ((await endpoint())?.user?.email !== user.email) throw new Error("session was not read")
  if ((await page())?.user?.email !== user.email) throw new Error("session was not read")
  return {
    "bare round trip (SELECT $1)": () => client.query("SELECT $1", [1]),
    "adapter getSessionAndUser": () => adapter.getSessionAndUser(sessionToken),
    "getSession (per page)": page,
    "Auth() GET /auth/session": endpoint,
  }
}

/** One round: the p50 and p99 of sequential calls for `ms`. */
async function round(fn, ms) {
  const { p50, p99 } = await timeCalls(fn, ms)
  return { p50, p99 }
}

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1]

async function measure(fns) {
  const names = Object.keys(fns)
  for (const name of names) await round(fns[name], ROUND_MS) // warm-up
  const runs = Object.fromEntries(names.map((n) => [n, []]))
  for (let r = 0; r < ROUNDS; r++) {
    for (const name of r % 2 ? [...names].reverse() : names) {
      runs[name].push(await round(fns[name], ROUND_MS))
    }
  }
  return Object.fromEntries(
    names.map((n) => [
      n,
      { p50: median(runs[n].map((x) => x.p50)), p99: median(runs[n].map((x) => x.p99)) },
    ]),
  )
}

/**
 * `contenders(client)` measured on embedded PGlite and, when DATABASE_URL is set, the PostgreSQL
 * server (a schema of its own named after `schema`): table rows of database, call, p50, p99 and
 * p50 ÷ the first contender's.
 */
export async function measureOnDatabases(contenders, schema) {
  const rows = []
  const add = (database, results) => {
    const base = Object.values(results)[0].p50
    for (const [name, { p50, p99 }] of Object.entries(results)) {
      rows.push([
        database,
        name,
        `${p50.toFixed(3)} ms`,
        `${p99.toFixed(2)} ms`,
        `${(p50 / base).toFixed(2)}×`,
      ])
    }
  }
  const lite = new PGlite()
  add("PGlite (embedded)", await measure(await contenders(lite)))
  await lite.close()
  if (process.env.DATABASE_URL) {
    const { pool, close } = await pgSchemaPool(schema)
    try {
      add("PostgreSQL server (pg Pool, loopback)", await measure(await contenders(pool)))
    } finally {
      await close()
    }
  }
  return rows
}

export async function benchDatabaseSession() {
  const rows = await measureOnDatabases(contenders, "db_session")
  printTable(
    `Database session read (sequential calls, median of ${ROUNDS} interleaved rounds)`,
    ["database", "call", "p50", "p99", "p50 ÷ bare round trip"],
    rows,
  )
  if (!process.env.DATABASE_URL)
    console.log("\n(DATABASE_URL unset: the PostgreSQL rows are missing.)")
}
