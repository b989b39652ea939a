// Organizations: what the active-organization check adds to a signed-in read, on embedded PGlite
// and (when DATABASE_URL is set) the PostgreSQL server, database sessions. The same user and
// session are read four ways: `getSession` by an app without organizations (the baseline),
// `getSession` by the same app with organizations configured (configuring them must cost a
// read nothing), `hasPermission(config, { request }, …)` (the read plus one membership query:
// what a guarded route pays) and `getActiveOrganization` (plus the organization's row).
// Contenders run in alternating rounds of sequential calls; each figure is the median of the
// rounds' p50 (and p99).
import { migrate, PostgresAdapter } from "@latchkey/adapter-postgres"
import { getSession } from "@latchkey/core"
import { getActiveOrganization, hasPermission, Organizations } from "@latchkey/core/organizations"
import { measureOnDatabases } from "./db-session.mjs"
import { printTable } from "./harness.mjs"
import { databaseSessionConfig, seedSession } from "./seed.mjs"

const SECRET = "bench-secret-0123456789abcdef0123456789abcdef"
const COOKIE = "authjs.session-token"

async function contenders(client) {
  await migrate(client)
  const adapter = PostgresAdapter(client)
  const { user, sessionToken } = await seedSession(adapter, `org-${Date.now()}@example.com`)
  const org = await adapter.createOrganization(
    { id: crypto.randomUUID(), name: "Bench", slug: `bench-${Date.now()}`, createdAt: new Date() },
    user.id,
    { maxPerUser: 10 },
  )
  await adapter.updateSession({ sessionToken, activeOrganizationId: org.id })
  const plain = databaseSessionConfig(adapter, SECRET)
  const withOrgs = {
    ...databaseSessionConfig(adapter, SECRET),
    organizations: Organizations({ sendInvitation: () => {} }),
  }
  const request = new Request("http://localhost:3000/", {
    headers: { cookie: `${COOKIE}=${sessionToken}` },
  })
  const fns = {
    "getSession, no organizations (baseline)": async () =>
      (await getSession(request, plain)).session,
    "getSession, organizations configured": async () =>
      (await getSession(request, withOrgs)).session,
    "hasPermission({ request }) (read + membership)": () =>
      hasPermission(withOrgs, { request }, { organization: ["update"] }),
    "getActiveOrganization (read + membership + organization)": () =>
      getActiveOrganization(withOrgs, request),
  }
  if ((await fns["getSession, no organizations (baseline)"]())?.user?.email !== user.email) {
    throw new Error("session was not read")
  }
  if (!(await fns["hasPermission({ request }) (read + membership)"]())) {
    throw new Error("the owner's permission was not found")
  }
  if ((await getActiveOrganization(withOrgs, request))?.organization.id !== org.id) {
    throw new Error("the active organization was not read")
  }
  return fns
}

export async function benchOrganizations() {
  const rows = await measureOnDatabases(contenders, "organizations")
  printTable(
    "The active-organization check on a signed-in read (database sessions, sequential calls)",
    ["database", "call", "p50", "p99", "p50 ÷ baseline"],
    rows,
  )
  if (!process.env.DATABASE_URL)
    console.log("\n(DATABASE_URL unset: the PostgreSQL rows are missing.)")
}
