import Credentials from "@latchkey/core/providers/credentials"
import { QwikAuth$ } from "@latchkey/qwik"

// Module-level config, as the README advises (the core caches its resolved form per object).
// `AUTH_SECRET` comes from the environment; the bench mints the session cookie itself, so
// `authorize` never runs.
const config = {
  trustHost: true,
  session: { strategy: "jwt" as const },
  providers: [Credentials({ credentials: { email: {} }, authorize: async () => null })],
}

export const { onRequest, useSession } = QwikAuth$(() => config)
