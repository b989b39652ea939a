/**
 * `getSessionData`, for server code outside the plugin (an endpoint, a `server$`). It is exported
 * from the module the browser loads, so it reaches the core through a dynamic import that only
 * runs when it is called (on the server).
 */
import type { GetSessionResult, QwikAuthConfig } from "./types.js"

/**
 * Read the session of `request` with the core's fast path. Pass a config that has its
 * environment defaults (`setEnvDefaults(event.env, config)`); write the returned cookies with
 * `event.cookie`.
 *
 * @public
 */
export async function getSessionData(request: Request, config: QwikAuthConfig): GetSessionResult {
  const [{ getSession }, { withPlainProviders }] = await Promise.all([
    import("@latchkey/core"),
    import("@latchkey/core/plain-providers"),
  ])
  const { session, cookies } = await getSession(request, await withPlainProviders(config))
  return { data: session, cookie: cookies }
}
