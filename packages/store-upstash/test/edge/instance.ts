/**
 * One app instance for the Vercel Edge two-instance test: `Auth()` of @latchkey/core with
 * credentials (5 attempts per account per minute) and JWT sessions revoked strictly, as the
 * default export of a Vercel edge function. The test serves it twice, each in its own
 * `edge-runtime` process (e2e/runtime-tools/serve-vercel-edge.mjs, the runtime matrix's Vercel
 * Edge), sharing the HTTP store through the test bridge; `x-store: memory` makes it use the
 * per-isolate memory store instead (the control).
 *
 * Two-factor needs an adapter, and no database client runs on Vercel Edge (no TCP): each
 * instance keeps users in its own memory adapter, seeded identically on its first request with
 * one enrolled user whose row the test wrote (TOTP_USER_ID, TOTP_EMAIL, TOTP_SEALED: the secret
 * sealed under AUTH_SECRET), as two instances reading one database would see it. The adapter holds no
 * single-use state of TOTP codes, so only the store can refuse a code the other instance took.
 */

import { Auth, type AuthConfig } from "@latchkey/core"
import type { Adapter } from "@latchkey/core/adapters"
import { MemoryAdapter } from "@latchkey/core/adapters/memory"
import Credentials from "@latchkey/core/providers/credentials"
import { TwoFactor } from "@latchkey/core/two-factor"
import { UpstashStore } from "@latchkey/store-upstash"

declare const process: { env: Record<string, string | undefined> }

let users: Adapter | undefined

/** This instance's users: the enrolled one, the same row as the other instance's. */
function seededUsers(): Adapter {
  if (users) return users
  const env = process.env
  const adapter = MemoryAdapter()
  // The memory adapter keeps a proposed id: the one the secret is sealed to.
  const userId = env.TOTP_USER_ID!
  adapter.createUser!({ id: userId, email: env.TOTP_EMAIL!, emailVerified: null })
  adapter.setTwoFactor!({ userId, secret: env.TOTP_SEALED!, enabledAt: new Date(0) })
  users = adapter
  return adapter
}

function config(store: string): AuthConfig {
  const env = process.env
  const adapter = seededUsers()
  return {
    secret: env.AUTH_SECRET,
    trustHost: true,
    ...(store === "memory"
      ? {}
      : {
          store: new UpstashStore({
            url: env.UPSTASH_URL!,
            token: env.UPSTASH_TOKEN!,
            prefix: env.UPSTASH_PREFIX!,
          }),
        }),
    session: { strategy: "jwt", revocation: "strict" },
    adapter,
    twoFactor: TwoFactor({ issuer: "Latchkey Vercel Edge test" }),
    providers: [
      Credentials({
        credentials: { email: {}, password: {} },
        authorize: async (c) => {
          if (c.password !== "right") return null
          const email = String(c.email)
          // The enrolled user, or anyone else signing in by password alone.
          return (await adapter.getUserByEmail!(email)) ?? { id: `user-${email}`, email }
        },
        rateLimit: { perAccount: { limit: 5, windowMs: 60_000 }, perIp: false },
      }),
    ],
  }
}

export default async function handler(request: Request): Promise<Response> {
  if (!new URL(request.url).pathname.startsWith("/auth/")) return new Response("up")
  const response = await Auth(request, config(request.headers.get("x-store") ?? "shared"))
  const answered = new Response(response.body, response)
  answered.headers.set("x-instance", process.env.INSTANCE ?? "")
  return answered
}
