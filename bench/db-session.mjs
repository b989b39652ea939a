// Auth() GET /auth/session with the database strategy: one getSessionAndUser per read,
// against embedded PGlite and (when DATABASE_URL is set) the PostgreSQL server. Reports
// requests/s and per-request p50/p99 latency.
import { PGlite } from "@electric-sql/pglite"
import { migrate, PostgresAdapter } from "@latchkey/adapter-postgres"
import { Auth } from "@latchkey/core"
import Credentials from "@latchkey/core/providers/credentials"
import { fmt, measureLatency, printTable } from "./harness.mjs"
import { pgSchemaPool } from "./pg-schema.mjs"

const SECRET = "bench-secret-0123456789abcdef0123456789abcdef"
async function sessionReader(client) {
  await migrate(client)
  const adapter = PostgresAdapter(client)
  const user = await adapter.createUser({
    id: crypto.randomUUID(),
    email: `bench-${Date.now()}@example.com`,
    emailVerified: null,
    name: "Bench",
  })
  const sessionToken = crypto.randomUUID() + crypto.randomUUID()
  await adapter.createSession({
    sessionToken,
    userId: user.id,
    expires: new Date(Date.now() + 86400_000),
  })
  const config = {
    secret: SECRET,
    trustHost: true,
    adapter,
    session: { strategy: "database" },
    providers: [Credentials({ authorize: async () => null })],
  }
  const read = async () => {
    const res = await Auth(
      new Request("http://localhost:3000/auth/session", {
        headers: { cookie: `authjs.session-token=${sessionToken}` },
      }),
      config,
    )
    return res.json()
  }
  const body = await read()
  if (body?.user?.email !== user.email) throw new Error("database session was not read")
  return read
}

export async function benchDatabaseSession() {
  const rows = []
  const lite = new PGlite()
  rows.push(["PGlite (embedded)", await measureLatency(await sessionReader(lite))])
  await lite.close()
  if (process.env.DATABASE_URL) {
    const { pool, close } = await pgSchemaPool("db_session")
    try {
      rows.push(["PostgreSQL server (pg Pool)", await measureLatency(await sessionReader(pool))])
    } finally {
      await close()
    }
  }
  printTable(
    "Auth() GET /auth/session, database strategy (sequential requests)",
    ["database", "requests/s", "p50", "p99"],
    rows.map(([name, r]) => [name, fmt(r.rps), `${r.p50.toFixed(2)} ms`, `${r.p99.toFixed(2)} ms`]),
  )
}
