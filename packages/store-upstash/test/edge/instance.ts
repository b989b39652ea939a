/**
 * One app instance for the Vercel Edge two-instance test: `Auth()` of @latchkey/core with
 * credentials (5 attempts per account per minute) and JWT sessions revoked strictly, as the
 * default export of a Vercel edge function. The test serves it twice, each in its own
 * `edge-runtime` process (e2e/runtime-tools/serve-vercel-edge.mjs, the runtime matrix's Vercel
 * Edge), sharing the HTTP store through the test bridge; `x-store: memory` makes it use the
 * per-isolate memory store instead (the control).
 */
import { Auth, type AuthConfig } from "@latchkey/core"
import Credentials from "@latchkey/core/providers/credentials"
import { UpstashStore } from "@latchkey/store-upstash"

declare const process: { env: Record<string, string | undefined> }

function config(store: string): AuthConfig {
  const env = process.env
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
    providers: [
      Credentials({
        credentials: { email: {}, password: {} },
        authorize: async (c) =>
          c.password === "right" ? { id: `user-${c.email}`, email: String(c.email) } : null,
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
