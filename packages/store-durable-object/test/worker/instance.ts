/**
 * One app instance for the two-instance test: `Auth()` of @latchkey/core with credentials (5
 * attempts per account per minute) and JWT sessions revoked strictly. Two workers run this code
 * in one `wrangler dev` (two isolates, each with its own memory); the first defines the Durable
 * Object and forwards requests marked `x-instance: b` to the second. `x-store: memory` makes
 * the instance use the default memory store instead: the control that shows the two isolates
 * do not share memory.
 */
import { Auth, type AuthConfig } from "@latchkey/core"
import Credentials from "@latchkey/core/providers/credentials"
import { DurableObjectStore, LatchkeyStoreObject } from "../../src/index.js"

export { LatchkeyStoreObject }

interface Env {
  AUTH_SECRET: string
  INSTANCE: string
  LATCHKEY_STORE: ConstructorParameters<typeof DurableObjectStore>[0]["namespace"]
  INSTANCE_B?: { fetch(request: Request): Promise<Response> }
}

const configs = new Map<string, AuthConfig>()

function config(env: Env, store: string): AuthConfig {
  const known = configs.get(store)
  if (known) return known
  const made: AuthConfig = {
    secret: env.AUTH_SECRET,
    trustHost: true,
    ...(store === "memory"
      ? {}
      : { store: new DurableObjectStore({ namespace: env.LATCHKEY_STORE, name: store }) }),
    session: { strategy: "jwt", revocation: "strict" },
    providers: [
      Credentials({
        credentials: { email: {}, password: {} },
        authorize: (c) =>
          c.password === "right" ? { id: `user-${c.email}`, email: String(c.email) } : null,
        rateLimit: { perAccount: { limit: 5, windowMs: 60_000 }, perIp: false },
      }),
    ],
  }
  configs.set(store, made)
  return made
}

export default {
  async fetch(request: Request, env: Env): Promise<Response> {
    if (request.headers.get("x-instance") === "b" && env.INSTANCE_B) {
      const headers = new Headers(request.headers)
      headers.delete("x-instance")
      return env.INSTANCE_B.fetch(new Request(request, { headers }))
    }
    const response = await Auth(request, config(env, request.headers.get("x-store") ?? "shared"))
    const answered = new Response(response.body, response)
    answered.headers.set("x-instance", env.INSTANCE)
    return answered
  },
}
