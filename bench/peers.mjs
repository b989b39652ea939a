// `npm run bench peers`: every row of the comparison table against the same two peers in one
// process — Better Auth 1.7 (`auth.handler`) and Auth.js (`@auth/core`'s `Auth()`) — each row's
// contenders in interleaved rounds, the figure the median of same-round ratios (Latchkey ÷ peer,
// > 1 = Latchkey faster), which a noisy neighbour moves far less than the rates.
//
// What each side does, per row:
// - Database rows, on the PostgreSQL server at DATABASE_URL (one schema per library, pg Pool of 4):
//   Latchkey `PostgresAdapter`; Auth.js `@auth/drizzle-adapter` (drizzle-orm/node-postgres);
//   Better Auth's built-in Kysely/pg support, migrated by its own `getMigrations`.
// - JWT rows: Latchkey with the default memory store (revocation "reissue": every sign-in is
//   recorded for "your devices", store limits counted); Auth.js with no adapter; Better Auth on
//   its memory adapter with its JWE cookie cache (its stateless read: no adapter call per read,
//   but a sign-in still writes a session row, in memory).
// - Credentials sign-in: every side looks the user up by email in the same kind of store and
//   compares a password with a trivial "hash" (equal, cheap): the password rows below carry
//   the real hash. Auth.js refuses credentials with database sessions (its "—").
// - Latchkey runs with every protection on: per-account and per-IP limits through the store,
//   the session record, revocation, the two-factor check (`twoFactor` configured: each sign-in
//   looks for the user's enrollment), CSRF double-submit and the Origin check. Better Auth runs
//   its rate limiter (off by default outside production) with limits the bench never reaches,
//   and its Origin check; Auth.js its CSRF double-submit.
// - Sign-out posts the same signed-in cookie again and again on every side.
// - Password rows: Latchkey's `Password` provider and Better Auth's email + password, both on
//   the PostgreSQL server, both given the same hasher (Latchkey's argon2id, OWASP parameters:
//   m=19 MiB, t=2, p=1), so the hash costs the same; "hash share" is the hasher alone in the
//   same rounds ÷ the request.
import { Auth as AuthJs } from "@auth/core"
import GitHub from "@auth/core/providers/github"
import { DrizzleAdapter } from "@auth/drizzle-adapter"
import { migrate, PostgresAdapter } from "@latchkey/adapter-postgres"
import { Auth } from "@latchkey/core"
import Credentials from "@latchkey/core/providers/credentials"
import Password, { createPasswordHasher } from "@latchkey/core/providers/password"
import { MemoryStore } from "@latchkey/core/store"
import { TwoFactor } from "@latchkey/core/two-factor"
import { drizzle } from "drizzle-orm/node-postgres"
import {
  baRequest,
  betterAuthApp,
  cookiesOf,
  signInRequest,
  signOutRequest,
  signUpRequest,
} from "./better-auth-app.mjs"
import { printTable, roundRatio, runRounds } from "./harness.mjs"
import { pgSchemaPool } from "./pg-schema.mjs"
import { bareSessionResponse } from "./seed.mjs"
import { csrf, jwtCredentialsApps, post, sessionCookieOf } from "./sign-in.mjs"

const SECRET = "bench-peers-secret-0123456789abcdef0123456789ab"
const ORIGIN = "http://localhost:3000"
const EMAIL = "ada@example.com"
const PASSWORD = "tangerine-orbit-cabinet"
const quiet = {
  error: (e) => process.env.BENCH_DEBUG && console.error(e),
  warn: () => {},
  debug: () => {},
}
const COOKIE = "authjs.session-token"
// The cheap equal "hash" of the credentials rows (Better Auth's `password` option).
const plainHash = {
  hash: async (password) => `plain:${password}`,
  verify: async ({ hash, password }) => hash === `plain:${password}`,
}

const AUTHJS_TABLES = `
  CREATE TABLE IF NOT EXISTS "user" (id text PRIMARY KEY, name text, email text UNIQUE,
    "emailVerified" timestamp, image text);
  CREATE TABLE IF NOT EXISTS "account" ("userId" text NOT NULL REFERENCES "user"(id) ON DELETE CASCADE,
    type text NOT NULL, provider text NOT NULL, "providerAccountId" text NOT NULL, refresh_token text,
    access_token text, expires_at integer, token_type text, scope text, id_token text,
    session_state text, PRIMARY KEY (provider, "providerAccountId"));
  CREATE TABLE IF NOT EXISTS "session" ("sessionToken" text PRIMARY KEY,
    "userId" text NOT NULL REFERENCES "user"(id) ON DELETE CASCADE, expires timestamp NOT NULL);
  CREATE TABLE IF NOT EXISTS "verificationToken" (identifier text NOT NULL, token text NOT NULL,
    expires timestamp NOT NULL, PRIMARY KEY (identifier, token));`

const ok = (res, who, statuses = [200]) => {
  if (!statuses.includes(res.status)) throw new Error(`${who}: ${res.status}`)
  return res
}
const isRedirect = [302, 303]

/** Latchkey on PostgreSQL: database sessions, Credentials looking the user up, two-factor on. */
async function latchkeyDb(pool) {
  await migrate(pool)
  const adapter = PostgresAdapter(pool)
  const user = await adapter.createUser({ email: EMAIL, emailVerified: null, name: "Ada" })
  const config = {
    secret: SECRET,
    trustHost: true,
    logger: quiet,
    adapter,
    store: new MemoryStore(),
    twoFactor: TwoFactor({ issuer: "Bench" }),
    session: { strategy: "database" },
    providers: [
      Credentials({
        credentials: { email: {}, password: {} },
        authorize: async (c) => {
          const found = await adapter.getUserByEmail(String(c.email))
          return found &&
            (await plainHash.verify({ hash: `plain:${PASSWORD}`, password: c.password }))
            ? found
            : null
        },
      }),
    ],
  }
  return { config, adapter, user }
}

/** Auth.js on PostgreSQL (`@auth/drizzle-adapter`): database sessions, one signed-in user. */
export async function authjsDb(pool) {
  await pool.query(AUTHJS_TABLES)
  const adapter = DrizzleAdapter(drizzle(pool))
  const user = await adapter.createUser({
    id: crypto.randomUUID(),
    email: EMAIL,
    emailVerified: null,
    name: "Ada",
  })
  const sessionToken = crypto.randomUUID()
  await adapter.createSession({
    sessionToken,
    userId: user.id,
    expires: new Date(Date.now() + 30 * 86400_000),
  })
  const config = {
    secret: SECRET,
    trustHost: true,
    basePath: "/auth",
    logger: quiet,
    adapter,
    session: { strategy: "database" },
    // Auth.js refuses a Credentials provider with database sessions at start-up.
    providers: [GitHub({ clientId: "bench", clientSecret: "bench" })],
  }
  return { config, sessionToken }
}

const form = (pair, extra = {}) => ({
  email: EMAIL,
  password: PASSWORD,
  csrfToken: pair.csrfToken,
  ...extra,
})

/** One row: run the contenders, return [label, Latchkey ÷ Better Auth, Latchkey ÷ Auth.js]. */
async function row(label, contenders) {
  const { rates } = await runRounds(contenders)
  const vs = (peer) =>
    contenders[peer] ? `${roundRatio(rates, "latchkey", peer).toFixed(2)}×` : "—"
  return [label, vs("betterAuth"), vs("authjs")]
}

async function databaseRows(rows) {
  const lkDb = await pgSchemaPool("peers_lk")
  const ajDb = await pgSchemaPool("peers_aj")
  const baDb = await pgSchemaPool("peers_ba")
  try {
    const lk = await latchkeyDb(lkDb.pool)
    const aj = await authjsDb(ajDb.pool)
    const ba = await betterAuthApp({ pool: baDb.pool, password: plainHash, secret: SECRET })
    ok(await ba.handler(signUpRequest(EMAIL, PASSWORD, "Ada")), "better-auth sign-up")

    // A signed-in browser of each.
    const lkPair = await csrf(Auth, lk.config)
    const lkSignIn = () =>
      Auth(post("/auth/callback/credentials", lkPair.cookie, form(lkPair)), lk.config)
    const lkCookie = sessionCookieOf(ok(await lkSignIn(), "latchkey sign-in", isRedirect))
    if (!lkCookie) throw new Error("latchkey: no database session cookie")
    const baSignIn = () => ba.handler(signInRequest(EMAIL, PASSWORD))
    const baCookie = cookiesOf(ok(await baSignIn(), "better-auth sign-in"))
    const ajCookie = `${COOKIE}=${aj.sessionToken}`

    // The adapter's own statement, prepared, with the stored (hashed) token: the floor of a read.
    const { rows: stored } = await lkDb.pool.query(
      `SELECT "sessionToken" FROM sessions ORDER BY "createdAt" DESC LIMIT 1`,
    )
    const { sql } = await import("../packages/adapter-postgres/dist/sql.js")
    const rawQuery = () =>
      lkDb.pool.query({
        name: "bench-raw-session",
        text: sql.getSessionAndUserFull,
        values: [stored[0].sessionToken],
      })
    if ((await rawQuery()).rows.length !== 1) throw new Error("raw query found no session")

    const lkRead = async () => {
      const body = await (
        await Auth(
          new Request(`${ORIGIN}/auth/session`, { headers: { cookie: lkCookie } }),
          lk.config,
        )
      ).json()
      if (body?.user?.email !== EMAIL) throw new Error("latchkey: no database session read")
    }
    const ajRead = async () => {
      const body = await (
        await AuthJs(
          new Request(`${ORIGIN}/auth/session`, { headers: { cookie: ajCookie } }),
          aj.config,
        )
      ).json()
      if (body?.user?.email !== EMAIL)
        throw new Error(`authjs: no database session read ${JSON.stringify(body)}`)
    }
    // The floor of any endpoint on Node's Request/Response: the same read, a bare Response.
    const floorRead = async () => {
      const body = await bareSessionResponse(
        new Request(`${ORIGIN}/auth/session`, { headers: { cookie: lkCookie } }),
        lk.config,
      )
      if (body?.user?.email !== EMAIL) throw new Error("floor: no database session read")
    }
    const baRead = async () => {
      const body = await (await ba.handler(baRequest("/get-session", { cookie: baCookie }))).json()
      if (body?.user?.email !== EMAIL) throw new Error("better-auth: no database session read")
    }
    const read = await runRounds({
      latchkey: lkRead,
      betterAuth: baRead,
      authjs: ajRead,
      raw: rawQuery,
      floor: floorRead,
    })
    rows.push([
      "database session read",
      `${roundRatio(read.rates, "latchkey", "betterAuth").toFixed(2)}×`,
      `${roundRatio(read.rates, "latchkey", "authjs").toFixed(2)}×`,
    ])
    // Costs (lower is better): against the statement, which load moves (the CPU-bound part
    // stretches, the round trip does not), and against the bare-Response floor, which it does not.
    const cost = (label, base) => [
      label,
      `${roundRatio(read.rates, base, "latchkey").toFixed(2)}×`,
      "",
    ]
    rows.push(cost("`GET /session` ÷ its own prepared statement (cost, lower is better)", "raw"))
    rows.push(
      cost("`GET /session` ÷ `getSession` + a bare `Response` (cost, lower is better)", "floor"),
    )

    rows.push(
      await row("credentials sign-in, database sessions", {
        latchkey: async () => sessionCookieOf(ok(await lkSignIn(), "latchkey sign-in", isRedirect)),
        betterAuth: async () => ok(await baSignIn(), "better-auth sign-in"),
      }),
    )
    const ajPair = await csrf(AuthJs, aj.config)
    rows.push(
      await row("sign-out, database sessions", {
        latchkey: async () =>
          ok(
            await Auth(
              post("/auth/signout", `${lkPair.cookie}; ${lkCookie}`, {
                csrfToken: lkPair.csrfToken,
              }),
              lk.config,
            ),
            "latchkey sign-out",
            isRedirect,
          ),
        betterAuth: async () =>
          ok(await ba.handler(signOutRequest(baCookie)), "better-auth sign-out"),
        authjs: async () => {
          const pair = ajPair
          ok(
            await AuthJs(
              post("/auth/signout", `${pair.cookie}; ${ajCookie}`, { csrfToken: pair.csrfToken }),
              aj.config,
            ),
            "authjs sign-out",
            isRedirect,
          )
        },
      }),
    )
    await passwordRows(rows, lkDb.pool, baDb.pool)
  } finally {
    await lkDb.close()
    await ajDb.close()
    await baDb.close()
  }
}

async function jwtRows(rows) {
  const users = new Map([[EMAIL, { id: "user-1", name: "Ada", email: EMAIL }]])
  const authorize = async (c) => {
    const found = users.get(String(c.email))
    return found && (await plainHash.verify({ hash: `plain:${PASSWORD}`, password: c.password }))
      ? found
      : null
  }
  const { latchkey, authjs } = jwtCredentialsApps(SECRET, authorize, { store: new MemoryStore() })
  const ba = await betterAuthApp({ password: plainHash, secret: SECRET })
  ok(await ba.handler(signUpRequest(EMAIL, PASSWORD, "Ada")), "better-auth sign-up")
  const lk = await csrf(Auth, latchkey)
  const aj = await csrf(AuthJs, authjs)
  const lkSignIn = () => Auth(post("/auth/callback/credentials", lk.cookie, form(lk)), latchkey)
  const ajSignIn = () => AuthJs(post("/auth/callback/credentials", aj.cookie, form(aj)), authjs)
  const baSignIn = () => ba.handler(signInRequest(EMAIL, PASSWORD))
  const lkCookie = sessionCookieOf(await lkSignIn())
  const ajCookie = sessionCookieOf(await ajSignIn())
  const baCookie = cookiesOf(ok(await baSignIn(), "better-auth sign-in"))
  if (!lkCookie || !ajCookie || !baCookie.includes("session_data"))
    throw new Error("a JWT sign-in set no session cookie")

  const readBody = async (res, who) => {
    if ((await res.json())?.user?.email !== EMAIL) throw new Error(`${who}: no JWT session read`)
  }
  rows.push(
    await row("stateless (JWT) session read", {
      latchkey: async () =>
        readBody(
          await Auth(
            new Request(`${ORIGIN}/auth/session`, { headers: { cookie: lkCookie } }),
            latchkey,
          ),
          "latchkey",
        ),
      betterAuth: async () =>
        readBody(await ba.handler(baRequest("/get-session", { cookie: baCookie })), "better-auth"),
      authjs: async () =>
        readBody(
          await AuthJs(
            new Request(`${ORIGIN}/auth/session`, { headers: { cookie: ajCookie } }),
            authjs,
          ),
          "authjs",
        ),
    }),
  )
  rows.push(
    await row("credentials sign-in, JWT sessions", {
      latchkey: async () => {
        if (!sessionCookieOf(await lkSignIn())) throw new Error("latchkey sign-in")
      },
      betterAuth: async () => ok(await baSignIn(), "better-auth sign-in"),
      authjs: async () => {
        if (!sessionCookieOf(await ajSignIn())) throw new Error("authjs sign-in")
      },
    }),
  )
  rows.push(
    await row("sign-out, JWT sessions", {
      latchkey: async () =>
        ok(
          await Auth(
            post("/auth/signout", `${lk.cookie}; ${lkCookie}`, { csrfToken: lk.csrfToken }),
            latchkey,
          ),
          "latchkey sign-out",
          isRedirect,
        ),
      betterAuth: async () =>
        ok(await ba.handler(signOutRequest(baCookie)), "better-auth sign-out"),
      authjs: async () =>
        ok(
          await AuthJs(
            post("/auth/signout", `${aj.cookie}; ${ajCookie}`, { csrfToken: aj.csrfToken }),
            authjs,
          ),
          "authjs sign-out",
          isRedirect,
        ),
    }),
  )
}

/** Password sign-in and sign-up at equal hash cost, on the PostgreSQL server. */
async function passwordRows(rows, lkPool, baPool) {
  const hasher = createPasswordHasher({ algorithm: "argon2id" })
  const adapter = PostgresAdapter(lkPool)
  const latchkey = {
    secret: SECRET,
    trustHost: true,
    logger: quiet,
    adapter,
    store: new MemoryStore(),
    twoFactor: TwoFactor({ issuer: "Bench" }),
    session: { strategy: "database" },
    providers: [Password({ hasher, requireEmailVerification: false, id: "password" })],
  }
  const ba = await betterAuthApp({
    pool: baPool,
    secret: SECRET,
    password: {
      hash: (p) => hasher.hash(p),
      verify: ({ hash, password }) => hasher.verify(hash, password),
    },
  })
  const pwEmail = "grace@example.com"
  const lk = await csrf(Auth, latchkey)
  const lkPost = (path, fields) =>
    Auth(post(path, lk.cookie, { csrfToken: lk.csrfToken, ...fields }), latchkey)
  ok(
    await lkPost("/auth/password/signup", { email: pwEmail, password: PASSWORD }),
    "latchkey password sign-up",
    [200, ...isRedirect],
  )
  ok(await ba.handler(signUpRequest(pwEmail, PASSWORD, "Grace")), "better-auth sign-up")
  const storedHash = await hasher.hash(PASSWORD)

  const signIn = await runRounds({
    latchkey: async () => {
      const res = await lkPost("/auth/callback/password", { email: pwEmail, password: PASSWORD })
      if (!sessionCookieOf(res)) throw new Error(`latchkey password sign-in: ${res.status}`)
    },
    betterAuth: async () =>
      ok(await ba.handler(signInRequest(pwEmail, PASSWORD)), "better-auth password sign-in"),
    hash: () => hasher.verify(storedHash, PASSWORD),
  })
  let n = 0
  const signUp = await runRounds({
    latchkey: async () =>
      ok(
        await lkPost("/auth/password/signup", {
          email: `lk-${n++}-${process.pid}@example.com`,
          password: PASSWORD,
        }),
        "latchkey sign-up",
        [200, ...isRedirect],
      ),
    betterAuth: async () =>
      ok(
        await ba.handler(signUpRequest(`ba-${n++}@example.com`, PASSWORD, "New")),
        "better-auth sign-up",
      ),
    hash: () => hasher.hash(PASSWORD),
  })
  for (const [label, r] of [
    ["password sign-in (argon2id, database sessions)", signIn],
    ["password sign-up (argon2id)", signUp],
  ]) {
    const share = (who) => `${Math.round(roundRatio(r.rates, who, "hash") * 100)}%`
    rows.push([
      `${label}; hash share Latchkey ${share("latchkey")}, Better Auth ${share("betterAuth")}`,
      `${roundRatio(r.rates, "latchkey", "betterAuth").toFixed(2)}×`,
      "—",
    ])
  }
  rows.push([
    `argon2id hash alone (Node): verify ${(1000 / signIn.medians.hash).toFixed(1)} ms, hash ${(1000 / signUp.medians.hash).toFixed(1)} ms`,
    "",
    "",
  ])
}

export async function benchPeers() {
  const rows = []
  if (process.env.DATABASE_URL) await databaseRows(rows)
  else console.log("\n(DATABASE_URL unset: the database and password rows are skipped.)")
  await jwtRows(rows)
  printTable(
    "Latchkey against its peers (median of same-round ratios, Latchkey ÷ peer, > 1 = Latchkey faster)",
    ["operation", "÷ Better Auth 1.7.25", "÷ Auth.js (`@auth/core`)"],
    rows,
  )
}
