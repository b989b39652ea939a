/**
 * `getAccessToken(event, providerId)`: the core's `getAccessToken` for a Qwik request event, in
 * a `routeLoader$`, a `server$` or an endpoint. The config is the one `QwikAuth$` resolved for
 * this request (the plugin's `onRequest` parks it in `sharedMap`); a re-issued session cookie is
 * written on the event, on success and on a refusal alike. Exported from the module the browser
 * loads, so the core and the cookie writer come through dynamic imports run on the server only.
 */
import type { RequestEventCommon } from "@builder.io/qwik-city"
import { InvalidParameter, RefreshTokenError } from "@latchkey/core/errors"
import { CONFIG_KEY } from "./shared-map.js"
import type { QwikAuthConfig } from "./types.js"

/**
 * The signed-in user's access token at `providerId` (a provider with `refresh` on), refreshed
 * when it is within its skew window of expiry; `null` when nobody is signed in or the user has
 * no account there. Throws `RefreshTokenError` (sign in again; `useSession` shows
 * `error: "RefreshTokenError"`), `TokenEndpointError` / `TokenEndpointTimeout` (transient).
 *
 * ```ts
 * export const useRepos = routeLoader$(async (event) => {
 *   const token = await getAccessToken(event, "github")
 *   if (!token) throw event.redirect(302, "/signin")
 *   return (await fetch("https://api.github.com/user/repos", {
 *     headers: { authorization: `Bearer ${token}` },
 *   })).json()
 * })
 * ```
 *
 * @public
 */
export async function getAccessToken(
  event: RequestEventCommon,
  providerId: string,
  config?: QwikAuthConfig,
): Promise<string | null> {
  const resolved =
    config ?? (await (event.sharedMap.get(CONFIG_KEY) as Promise<QwikAuthConfig> | undefined))
  if (!resolved) {
    throw new InvalidParameter(
      "config",
      "is unknown for this request: export onRequest from src/routes/plugin@auth.ts, or pass the config",
    )
  }
  const [{ getAccessToken: getCoreAccessToken }, { applyResponseCookies }] = await Promise.all([
    import("@latchkey/core"),
    import("./cookies.js"),
  ])
  try {
    const result = await getCoreAccessToken(event.request, resolved, providerId)
    if (!result) return null
    applyResponseCookies(event, result.cookies)
    return result.accessToken
  } catch (error) {
    if (error instanceof RefreshTokenError) applyResponseCookies(event, error.cookies)
    throw error
  }
}
