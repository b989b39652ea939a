// A signed-in user for the session-read benches: one user and one fresh database session
// (expiring in 30 days, so reads inside updateAge write nothing).
import { getSession } from "@latchkey/core"
import Credentials from "@latchkey/core/providers/credentials"

/** Creates the user and the session through `adapter`; returns both and the session token. */
export async function seedSession(adapter, email) {
  const user = await adapter.createUser({
    id: crypto.randomUUID(),
    email,
    emailVerified: null,
    name: "Bench",
  })
  const sessionToken = crypto.randomUUID() + crypto.randomUUID()
  await adapter.createSession({
    sessionToken,
    userId: user.id,
    expires: new Date(Date.now() + 30 * 86400_000),
  })
  return { user, sessionToken }
}

/** The app both suites read with: database sessions on `adapter`, one Credentials provider. */
export const databaseSessionConfig = (adapter, secret) => ({
  secret,
  trustHost: true,
  adapter,
  session: { strategy: "database" },
  providers: [Credentials({ authorize: async () => null })],
})

// The headers `GET /session` answers with: the floor builds the same response.
const SESSION_HEADERS = {
  "Cache-Control": "private, no-cache, no-store",
  Expires: "0",
  Pragma: "no-cache",
  "Content-Type": "application/json",
}

/**
 * The floor of any session endpoint on Node's `Request`/`Response`: the core's read answered with
 * a bare `Response` of the same headers, its body read back as a client would.
 */
export async function bareSessionResponse(request, config) {
  const { session } = await getSession(request, config)
  return new Response(JSON.stringify(session), { headers: SESSION_HEADERS }).json()
}
