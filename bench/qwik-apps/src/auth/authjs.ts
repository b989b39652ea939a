import { QwikAuth$ } from "@auth/qwik"
import Credentials from "@auth/qwik/providers/credentials"

// Same config as `latchkey.ts`, also module-level (kinder to Auth.js than a fresh object per
// request, which its docs show). `AUTH_SECRET` comes from the environment.
const config = {
  trustHost: true,
  session: { strategy: "jwt" as const },
  providers: [Credentials({ credentials: { email: {} }, authorize: async () => null })],
}

export const { onRequest, useSession } = QwikAuth$(() => config)
