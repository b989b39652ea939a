// getAccessToken on a fresh provider token (no refresh, no provider call) against a plain
// session read (getSession), per-call p50/p99: JWT sessions with the tokens in the cookie,
// and database sessions on PGlite with the tokens sealed in the accounts row.
import { PGlite } from "@electric-sql/pglite"
import { migrate, PostgresAdapter } from "@latchkey/adapter-postgres"
import { getAccessToken, getSession } from "@latchkey/core"
import { encode } from "@latchkey/core/jwt"
import OAuth from "@latchkey/core/providers/oauth"
import { fmt, measureLatency, printTable } from "./harness.mjs"

const SECRET = "bench-secret-0123456789abcdef0123456789abcdef"
const COOKIE = "authjs.session-token"
const ACCESS = `at-${"x".repeat(40)}`
const REFRESH = `rt-${"y".repeat(40)}`
const inAnHour = () => Math.floor(Date.now() / 1000) + 3600

// The issuer is never contacted: a fresh token needs no discovery and no token endpoint.
const provider = (refresh) =>
  OAuth({
    type: "oidc",
    id: "idp",
    issuer: "https://idp.example",
    clientId: "bench",
    clientSecret: "bench-client-secret",
    refresh,
  })

function request(cookie) {
  return () => new Request("http://localhost:3000/api", { headers: { cookie } })
}

async function jwtContenders() {
  const config = { secret: SECRET, trustHost: true, providers: [provider(true)] }
  const token = await encode({
    token: {
      name: "Ada Lovelace",
      email: "ada@example.com",
      sub: "user-1",
      providerTokens: {
        idp: { access_token: ACCESS, refresh_token: REFRESH, expires_at: inAnHour() },
      },
    },
    secret: SECRET,
    salt: COOKIE,
  })
  return contenders(config, request(`${COOKIE}=${token}`))
}

async function databaseContenders(client) {
  await migrate(client)
  const adapter = PostgresAdapter(client)
  const config = {
    secret: SECRET,
    trustHost: true,
    adapter,
    session: { strategy: "database" },
    providers: [provider(true)],
  }
  const user = await adapter.createUser({
    id: crypto.randomUUID(),
    email: `bench-${Date.now()}@example.com`,
    emailVerified: null,
    name: "Bench",
  })
  // Sealed as sign-in seals them ("lk1." + a JWE under the provider-token salt); the first
  // getAccessToken call (fail fast) proves they open.
  const sealToken = async (_secret, value) =>
    `lk1.${await encode({ token: { v: value }, secret: SECRET, salt: "latchkey.provider-token" })}`
  await adapter.linkAccount({
    userId: user.id,
    type: "oidc",
    provider: "idp",
    providerAccountId: "ada",
    access_token: await sealToken([SECRET], ACCESS),
    refresh_token: await sealToken([SECRET], REFRESH),
    expires_at: inAnHour(),
  })
  const sessionToken = crypto.randomUUID() + crypto.randomUUID()
  await adapter.createSession({
    sessionToken,
    userId: user.id,
    expires: new Date(Date.now() + 86400_000),
  })
  // The same session read with no refreshing provider: what the session marker costs.
  const plain = { ...config, providers: [provider(false)] }
  const req = request(`${COOKIE}=${sessionToken}`)
  return {
    ...(await contenders(config, req)),
    sessionNoRefresh: async () => {
      if (!(await getSession(req(), plain)).session) throw new Error("no session")
    },
  }
}

async function contenders(config, req) {
  const session = async () => {
    if (!(await getSession(req(), config)).session) throw new Error("no session")
  }
  const accessToken = async () => {
    if ((await getAccessToken(req(), config, "idp"))?.accessToken !== ACCESS) {
      throw new Error("no access token")
    }
  }
  return { session, accessToken }
}

const ms = (r) => `${r.p50.toFixed(3)} ms`

export async function benchAccessToken() {
  const rows = []
  const jwt = await jwtContenders()
  const jwtSession = await measureLatency(jwt.session)
  const jwtToken = await measureLatency(jwt.accessToken)
  rows.push([
    "JWT, tokens in the session cookie",
    "–",
    ms(jwtSession),
    ms(jwtToken),
    fmt(jwtToken.rps),
  ])
  const lite = new PGlite()
  const db = await databaseContenders(lite)
  const dbPlain = await measureLatency(db.sessionNoRefresh)
  const dbSession = await measureLatency(db.session)
  const dbToken = await measureLatency(db.accessToken)
  await lite.close()
  rows.push([
    "database (PGlite), tokens sealed in accounts",
    ms(dbPlain),
    ms(dbSession),
    ms(dbToken),
    fmt(dbToken.rps),
  ])
  printTable(
    "getAccessToken on a fresh token vs getSession (sequential calls, p50)",
    [
      "storage",
      "getSession, no refreshing provider",
      "getSession",
      "getAccessToken (fresh)",
      "getAccessToken calls/s",
    ],
    rows,
  )
}
