// A JWT session read (getSession, the path every page request takes) with
// `session.revocation: "strict"` — one revocation lookup per read — over Redis (RedisStore)
// and over PostgreSQL (PostgresAdapter, one query), against the same read with revocation off.
// Contenders run in alternating rounds; the figure is the median of the rounds' p50.
// Target: strict over Redis adds at most 0.15 ms at p50 on loopback.
import { PGlite } from "@electric-sql/pglite"
import { migrate, PostgresAdapter } from "@latchkey/adapter-postgres"
import { getSession } from "@latchkey/core"
import { encode } from "@latchkey/core/jwt"
import Credentials from "@latchkey/core/providers/credentials"
import { MemoryStore } from "@latchkey/core/store"
import { RedisStore } from "@latchkey/store-redis"
import { createClient } from "@redis/client"
import { printTable, timeCalls } from "./harness.mjs"
import { pgSchemaPool } from "./pg-schema.mjs"

const SECRET = "bench-secret-0123456789abcdef0123456789abcdef"
const ROUND_MS = Number(process.env.BENCH_REVOCATION_ROUND_MS ?? 600)
const ROUNDS = Number(process.env.BENCH_REVOCATION_ROUNDS ?? 7)
const COOKIE = "authjs.session-token"

/** A JWT session read (getSession) under `extra` config; checks once that it reads a session. */
export async function reader(extra) {
  const config = {
    secret: SECRET,
    trustHost: true,
    providers: [Credentials({ authorize: async () => null })],
    ...extra,
    session: { strategy: "jwt", ...extra.session },
  }
  const now = Math.floor(Date.now() / 1000)
  const token = await encode({
    token: {
      sub: "42",
      name: "Bench",
      email: "bench@example.com",
      sid: crypto.randomUUID(),
      auth_time: now,
    },
    secret: SECRET,
    salt: COOKIE,
  })
  const request = new Request("http://localhost:3000/", {
    headers: { cookie: `${COOKIE}=${token}` },
  })
  const read = async () => (await getSession(request, config)).session
  if ((await read())?.user?.email !== "bench@example.com") throw new Error("session was not read")
  return read
}

/** One round: the p50 of sequential calls for `ms`. */
const round = async (fn, ms) => (await timeCalls(fn, ms)).p50

const median = (xs) => [...xs].sort((a, b) => a - b)[xs.length >> 1]

export async function benchRevocation() {
  const contenders = {
    "revocation off": await reader({ store: new MemoryStore(), session: { revocation: "off" } }),
  }
  const closers = []

  const lite = new PGlite()
  await migrate(lite)
  contenders["strict, PGlite (embedded)"] = await reader({
    adapter: PostgresAdapter(lite),
    session: { revocation: "strict" },
  })
  closers.push(() => lite.close())

  if (process.env.DATABASE_URL) {
    const { pool, close } = await pgSchemaPool("revocation")
    await migrate(pool)
    contenders["strict, PostgreSQL (loopback)"] = await reader({
      adapter: PostgresAdapter(pool),
      session: { revocation: "strict" },
    })
    closers.push(close)
  }

  if (process.env.REDIS_URL) {
    const client = createClient({ url: process.env.REDIS_URL })
    client.on("error", () => {})
    await client.connect()
    const prefix = `latchkey-bench:${crypto.randomUUID()}:`
    contenders["strict, Redis (loopback)"] = await reader({
      store: new RedisStore({ client, prefix }),
      session: { revocation: "strict" },
    })
    // The floor of any remote lookup: one command's round trip from this client.
    contenders["bare Redis GET (one round trip)"] = () => client.sendCommand(["GET", `${prefix}x`])
    closers.push(() => client.close())
  }

  const names = Object.keys(contenders)
  for (const name of names) await round(contenders[name], ROUND_MS) // warm-up
  const p50s = Object.fromEntries(names.map((n) => [n, []]))
  for (let r = 0; r < ROUNDS; r++) {
    for (const name of r % 2 ? [...names].reverse() : names) {
      p50s[name].push(await round(contenders[name], ROUND_MS))
    }
  }
  const base = median(p50s["revocation off"])
  const redisTrip = p50s["bare Redis GET (one round trip)"]
  const trip = redisTrip ? median(redisTrip) : undefined
  printTable(
    "JWT session read (getSession): revocation strict vs off, p50",
    ["read", "p50", "added vs off", "added ÷ one Redis round trip"],
    names.map((n) => {
      const p50 = median(p50s[n])
      const bare = n.startsWith("bare")
      return [
        n,
        `${(p50 * 1000).toFixed(0)} µs`,
        n === "revocation off" || bare ? "–" : `+${((p50 - base) * 1000).toFixed(0)} µs`,
        n === "revocation off" || bare || !trip ? "–" : `${((p50 - base) / trip).toFixed(2)}×`,
      ]
    }),
  )
  if (!process.env.REDIS_URL) console.log("\n(REDIS_URL unset: the Redis row is missing.)")
  if (!process.env.DATABASE_URL)
    console.log("\n(DATABASE_URL unset: the PostgreSQL row is missing.)")
  for (const close of closers) await close()
}
