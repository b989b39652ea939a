/**
 * One app instance for the two-instance test: `Auth()` of @latchkey/core with credentials (5
 * attempts per account per minute) and JWT sessions revoked strictly. Two workers run this code
 * in one `wrangler dev` (two isolates, each with its own memory); the first defines the Durable
 * Object and forwards requests marked `x-instance: b` to the second. `x-store: memory` makes
 * the instance use the default memory store instead: the control that shows the two isolates
 * do not share memory; `x-store: upstash` makes it use the HTTP store (@latchkey/store-upstash)
 * through the test bridge in front of the machine's Redis (UPSTASH_URL, UPSTASH_TOKEN). `nodejs_compat` for `pg` (TCP through `cloudflare:sockets`).
 */

import { PostgresAdapter } from "@latchkey/adapter-postgres"
import { Auth, type AuthConfig } from "@latchkey/core"
import Credentials from "@latchkey/core/providers/credentials"
import { TwoFactor } from "@latchkey/core/two-factor"
import { UpstashStore } from "@latchkey/store-upstash"
import pg from "pg"
import { DurableObjectStore, LatchkeyStoreObject } from "../../src/index.js"

export { LatchkeyStoreObject }

interface Env {
  AUTH_SECRET: string
  INSTANCE: string
  /** With a database (the DATABASE_URL server, in SCHEMA): users and two-factor sign-in. */
  DATABASE_URL?: string
  SCHEMA?: string
  LATCHKEY_STORE: ConstructorParameters<typeof DurableObjectStore>[0]["namespace"]
  INSTANCE_B?: { fetch(request: Request): Promise<Response> }
  /** The test bridge (Upstash's REST API over the machine's Redis) and this run's key prefix. */
  UPSTASH_URL?: string
  UPSTASH_TOKEN?: string
  UPSTASH_PREFIX?: string
}

function sharedStore(env: Env, store: string): AuthConfig["store"] {
  if (store === "memory") return undefined
  if (store === "upstash") {
    if (!env.UPSTASH_URL || !env.UPSTASH_TOKEN) throw new Error("no UPSTASH_URL/UPSTASH_TOKEN")
    return new UpstashStore({
      url: env.UPSTASH_URL,
      token: env.UPSTASH_TOKEN,
      prefix: env.UPSTASH_PREFIX ?? "latchkey:",
    })
  }
  return new DurableObjectStore({ namespace: env.LATCHKEY_STORE, name: store })
}

/** Per request: a Worker cannot share a database socket between requests. */
function config(env: Env, store: string, client: pg.Client | undefined): AuthConfig {
  const adapter = client ? PostgresAdapter(client) : undefined
  return {
    secret: env.AUTH_SECRET,
    trustHost: true,
    ...(store === "memory" ? {} : { store: sharedStore(env, store) }),
    session: { strategy: "jwt", revocation: "strict" },
    ...(adapter ? { adapter, twoFactor: TwoFactor({ issuer: "Latchkey workerd test" }) } : {}),
    providers: [
      Credentials({
        credentials: { email: {}, password: {} },
        authorize: async (c) => {
          if (c.password !== "right") return null
          if (adapter) return adapter.getUserByEmail!(String(c.email))
          return { id: `user-${c.email}`, email: String(c.email) }
        },
        rateLimit: { perAccount: { limit: 5, windowMs: 60_000 }, perIp: false },
      }),
    ],
  }
}

export default {
  async fetch(
    request: Request,
    env: Env,
    ctx: { waitUntil(p: Promise<unknown>): void },
  ): Promise<Response> {
    if (request.headers.get("x-instance") === "b" && env.INSTANCE_B) {
      const headers = new Headers(request.headers)
      headers.delete("x-instance")
      return env.INSTANCE_B.fetch(new Request(request, { headers }))
    }
    let client: pg.Client | undefined
    if (env.DATABASE_URL) {
      client = new pg.Client({
        connectionString: env.DATABASE_URL,
        options: `-c search_path=${env.SCHEMA}`,
      })
      await client.connect()
    }
    try {
      const store = request.headers.get("x-store") ?? "shared"
      const response = await Auth(request, config(env, store, client))
      const answered = new Response(response.body, response)
      answered.headers.set("x-instance", env.INSTANCE)
      return answered
    } finally {
      if (client) ctx.waitUntil(client.end())
    }
  },
}
