/**
 * `requireRecentAuth` for route code (a route's `onRequest`, a `routeLoader$`, an action): the
 * core's recent sign-in check, answered the way a page expects: a 302 to the sign-in page with
 * `callbackUrl` back here (and `reauth=1` when signed in, but not recently enough).
 *
 * Exported from the module the browser loads, so the server half comes through a dynamic import
 * that only runs when it is called (on the server), like `getSessionData`.
 */
import type { RequestEventCommon } from "@builder.io/qwik-city"
import type { RecentSignIn, RequireRecentAuthOptions } from "./account-types.js"
import { registered } from "./registered-config.js"
import { server } from "./server-half.js"

export type { RecentSignIn, RequireRecentAuthOptions } from "./account-types.js"

/**
 * Continue only with a recent sign-in; otherwise end the request with a 302 to the sign-in page
 * (`pages.signIn`, else `<basePath>/signin`) with `callbackUrl=<this page>`, plus `reauth=1`
 * when the user is signed in but must confirm it is them. Needs the plugin's `onRequest` (or a
 * `QwikAuth$` loader or action) to have run on this server.
 *
 * ```ts
 * export const onRequest: RequestHandler = (event) => requireRecentAuth(event, { maxAge: 300 })
 * ```
 *
 * @public
 */
export async function requireRecentAuth(
  event: RequestEventCommon,
  opts: RequireRecentAuthOptions = {},
): Promise<RecentSignIn> {
  const { requireRecentAuthBody } = await server()
  return requireRecentAuthBody(event, registered.configQrl, opts)
}
