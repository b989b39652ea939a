// The parts of a signed-in Qwik page that are Latchkey's, timed in this process with the bench
// harness: the core's session read alone, then the binding's `onRequest` (config QRL, env
// defaults, the cookie check, the core read, `sharedMap`) and its `useSession` loader body, as
// the built server runs them (`packages/qwik/dist/server.js`, or `packages/qwik2/dist/server.js`
// for Qwik 2, called the way `QwikAuth$`'s middleware and loader call it). What Qwik does around them (calling the middleware and the
// loader, serialising the loader's value into the page) is measured on the page itself, against
// the "session loader, no auth" app (see qwik-page.mjs).
import { getSession } from "@latchkey/core"
import { encode } from "@latchkey/core/jwt"
import Credentials from "@latchkey/core/providers/credentials"
import { runScenario } from "./harness.mjs"
import { importFromQwik2 } from "./qwik-apps/v2/build.mjs"

/** The built server half of the binding for Qwik `major`, and that Qwik's `inlinedQrl`. */
async function bindingFor(major) {
  if (major === 2) {
    // Qwik 2's core reads a global its Vite plugin defines at build time (none are on here).
    globalThis.__EXPERIMENTAL__ ??= {}
    const [server, core] = await Promise.all([
      import("../packages/qwik2/dist/server.js"),
      importFromQwik2("@qwik.dev/core"),
    ])
    return { ...server, inlinedQrl: core.inlinedQrl }
  }
  const [server, core] = await Promise.all([
    import("../packages/qwik/dist/server.js"),
    import("@builder.io/qwik"),
  ])
  return { ...server, inlinedQrl: core.inlinedQrl }
}

/** The bench app's config (`bench/qwik-apps/src/auth/latchkey.ts`). */
const appConfig = () => ({
  trustHost: true,
  session: { strategy: "jwt" },
  providers: [Credentials({ credentials: { email: {} }, authorize: async () => null })],
})

/**
 * µs per call of each part, for a request carrying `cookie` (a valid session cookie signed with
 * `secret`), against the binding for Qwik `major` (1 or 2). The event is the subset of Qwik's
 * `RequestEvent` the binding touches.
 */
export async function bindingBreakdown({ cookie, secret, major = 1 }) {
  const { handleRequest, loadSessionValue, inlinedQrl } = await bindingFor(major)
  const env = new Map([["AUTH_SECRET", secret]])
  const request = new Request("http://127.0.0.1/", { headers: { cookie } })
  const url = new URL(request.url)
  const event = () => ({
    request,
    url,
    method: "GET",
    env: { get: (key) => env.get(key) },
    sharedMap: new Map(),
    cookie: { set() {} },
  })
  const config = appConfig()
  // One QRL, as the optimizer makes of the app's `QwikAuth$(() => config)`.
  const configQrl = inlinedQrl(() => config, "bench_config")
  const coreConfig = { ...appConfig(), secret: [secret] }
  // The core keeps the tokens it has opened (512); cycling through 1024 cookies makes every
  // read a first one: what a page costs for a cookie this process has not seen yet.
  const salt = cookie.slice(0, cookie.indexOf("="))
  const firstReads = await Promise.all(
    Array.from({ length: 1024 }, async () => {
      const token = await encode({
        token: { email: "ada@example.com", sub: "user-1" },
        secret,
        salt,
      })
      return new Request("http://127.0.0.1/", { headers: { cookie: `${salt}=${token}` } })
    }),
  )
  let next = 0

  const rates = await runScenario({
    "core, first read": () => getSession(firstReads[next++ % firstReads.length], coreConfig),
    core: () => getSession(request, coreConfig),
    onRequest: () => handleRequest(event(), configQrl),
    "onRequest + loader": async () => {
      const e = event()
      await handleRequest(e, configQrl)
      const session = await loadSessionValue(e, configQrl)
      if (!session?.user) throw new Error("the loader found no session")
    },
  })
  const us = (name) => 1e6 / rates[name]
  return {
    coreFirstRead: us("core, first read"),
    core: us("core"),
    onRequest: us("onRequest") - us("core"),
    loader: us("onRequest + loader") - us("onRequest"),
  }
}
