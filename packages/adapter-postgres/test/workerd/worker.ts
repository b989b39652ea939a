/**
 * `Auth()` with passkeys and database sessions in PostgreSQL, on workerd. Workers cannot share
 * a socket between requests, so each request opens its own `pg` client (on Cloudflare,
 * Hyperdrive pools the connections behind it) and closes it once the answer is sent.
 * The schema is migrated from Node beforehand, as a deploy step does (`migrate()` reads its
 * SQL files with `node:fs`).
 */
import { PostgresAdapter } from "@latchkey/adapter-postgres"
import { Auth } from "@latchkey/core"
import Passkey from "@latchkey/core/providers/passkey"
import pg from "pg"

interface Env {
  DATABASE_URL: string
  SCHEMA: string
  AUTH_SECRET: string
}

export default {
  async fetch(
    request: Request,
    env: Env,
    ctx: { waitUntil(p: Promise<unknown>): void },
  ): Promise<Response> {
    const client = new pg.Client({
      connectionString: env.DATABASE_URL,
      options: `-c search_path=${env.SCHEMA}`,
    })
    await client.connect()
    try {
      return await Auth(request, {
        secret: env.AUTH_SECRET,
        trustHost: true,
        adapter: PostgresAdapter(client),
        session: { strategy: "database" },
        experimental: { enableWebAuthn: true },
        providers: [Passkey()],
        logger: { warn: () => {} },
      })
    } finally {
      ctx.waitUntil(client.end())
    }
  },
}
