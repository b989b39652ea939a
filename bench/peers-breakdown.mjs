// `npm run bench peers-breakdown`: where Latchkey's time goes in the two database rows closest
// to their floor — `GET /session` and sign-out with database sessions — each stage beside the
// whole request in the same interleaved rounds (PostgreSQL server at DATABASE_URL): the raw
// prepared statement, the adapter method, the core's read without HTTP (`getSession`), that read
// answered with a bare `Response` (the floor of any endpoint built on Node's Request/Response),
// and `Auth()`. Auth.js's sign-out and its adapter's delete run beside them. The read is also
// taken in-process on the memory adapter, where no database round trip hides the CPU each
// stage adds.
import { Auth as AuthJs } from "@auth/core"
import { migrate, PostgresAdapter } from "@latchkey/adapter-postgres"
import { Auth, getSession } from "@latchkey/core"
import { MemoryAdapter } from "@latchkey/core/adapters/memory"
import { MemoryStore } from "@latchkey/core/store"
import { TwoFactor } from "@latchkey/core/two-factor"
import { printTable, roundRatio, runRounds } from "./harness.mjs"
import { authjsDb } from "./peers.mjs"
import { pgSchemaPool } from "./pg-schema.mjs"
import { bareSessionResponse, databaseSessionConfig, seedSession } from "./seed.mjs"
import { csrf, post } from "./sign-in.mjs"

const SECRET = "bench-breakdown-secret-0123456789abcdef012345"
const ORIGIN = "http://localhost:3000"
const COOKIE = "authjs.session-token"
/** The read's stages, cheapest first, for one adapter holding `sessionToken`. */
function readStages(config, sessionToken, floor) {
  const cookie = `${COOKIE}=${sessionToken}`
  const request = new Request(`${ORIGIN}/`, { headers: { cookie } })
  const sessionRequest = () => new Request(`${ORIGIN}/auth/session`, { headers: { cookie } })
  return {
    ...floor,
    "adapter getSessionAndUser": () => config.adapter.getSessionAndUser(sessionToken),
    "getSession (no HTTP)": () => getSession(request, config),
    "getSession + bare Response, body read": () => bareSessionResponse(sessionRequest(), config),
    "Auth() GET /session, body read": async () => (await Auth(sessionRequest(), config)).json(),
  }
}

/** The same stages in-process (memory adapter): what each costs in CPU, no I/O to hide it. */
async function inProcessStages() {
  const adapter = MemoryAdapter()
  const { sessionToken } = await seedSession(adapter, "ada@example.com")
  const config = databaseSessionConfig(adapter, SECRET)
  const cookie = `${COOKIE}=${sessionToken}`
  return runRounds(
    readStages(config, sessionToken, {
      "new Request (the framework's)": () =>
        new Request(`${ORIGIN}/auth/session`, { headers: { cookie } }),
    }),
  )
}

export async function benchPeersBreakdown() {
  if (!process.env.DATABASE_URL) return console.log("\n(DATABASE_URL unset: breakdown skipped.)")
  const lkDb = await pgSchemaPool("breakdown_lk")
  const ajDb = await pgSchemaPool("breakdown_aj")
  try {
    await migrate(lkDb.pool)
    const adapter = PostgresAdapter(lkDb.pool)
    const { sessionToken } = await seedSession(adapter, "ada@example.com")
    // Every protection of a real app on: the store's limits and the two-factor check.
    const config = {
      ...databaseSessionConfig(adapter, SECRET),
      store: new MemoryStore(),
      twoFactor: TwoFactor({ issuer: "Bench" }),
    }
    const { rows } = await lkDb.pool.query(`SELECT "sessionToken" FROM sessions LIMIT 1`)
    const { sql } = await import("../packages/adapter-postgres/dist/sql.js")
    const cookie = `${COOKIE}=${sessionToken}`
    const read = await runRounds(
      readStages(config, sessionToken, {
        "raw prepared statement": () =>
          lkDb.pool.query({
            name: "bench-bd-read",
            text: sql.getSessionAndUserFull,
            values: [rows[0].sessionToken],
          }),
      }),
    )

    const { config: ajConfig, sessionToken: ajToken } = await authjsDb(ajDb.pool)
    const ajAdapter = ajConfig.adapter
    const lkPair = await csrf(Auth, config)
    const ajPair = await csrf(AuthJs, ajConfig)
    const signOut = await runRounds({
      "raw prepared DELETE": () =>
        lkDb.pool.query({
          name: "bench-bd-delete",
          text: sql.deleteSession,
          values: [rows[0].sessionToken],
        }),
      "adapter deleteSession": () => adapter.deleteSession(sessionToken),
      "Auth() POST /signout": () =>
        Auth(
          post("/auth/signout", `${lkPair.cookie}; ${cookie}`, { csrfToken: lkPair.csrfToken }),
          config,
        ),
      "Auth.js adapter deleteSession": () => ajAdapter.deleteSession(ajToken),
      "Auth.js POST /signout": () =>
        AuthJs(
          post("/auth/signout", `${ajPair.cookie}; ${COOKIE}=${ajToken}`, {
            csrfToken: ajPair.csrfToken,
          }),
          ajConfig,
        ),
    })
    // µs per call (median over rounds) and the median of same-round ratios to the first stage:
    // the ratio is the figure a neighbour's load moves least.
    const stages = (r) => {
      const [floor] = Object.keys(r.medians)
      return Object.entries(r.medians).map(([name, rate]) => [
        name,
        `${(1e6 / rate).toFixed(0)} µs`,
        `${roundRatio(r.rates, floor, name).toFixed(2)}×`,
      ])
    }
    const header = ["stage", "per call", "÷ first stage (same rounds)"]
    printTable("Database session read, stage by stage (PostgreSQL server)", header, stages(read))
    printTable(
      "Database session read in-process (memory adapter, no I/O), stage by stage",
      header,
      stages(await inProcessStages()),
    )
    printTable("Sign-out with database sessions, stage by stage", header, stages(signOut))
  } finally {
    await lkDb.close()
    await ajDb.close()
  }
}
