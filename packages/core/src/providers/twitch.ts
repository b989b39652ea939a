/**
 * Twitch (OpenID Connect).
 * https://dev.twitch.tv/docs/authentication/getting-tokens-oidc/
 *
 * Twitch puts `email`/`picture` in the ID token only when asked through the `claims`
 * parameter, authenticates clients with `client_secret_post`, and answers `scope` as an array
 * (RFC 6749 says a space-separated string), which `token.conform` fixes before validation.
 *
 * @module @latchkey/core/providers/twitch
 */
import { type OIDCConfig, type OIDCUserConfig, oidcProvider } from "./oauth.js"

export interface TwitchProfile {
  sub: string
  preferred_username: string
  email?: string
  email_verified?: boolean
  picture?: string
  [claim: string]: unknown
}

/** Twitch's token response with `scope` joined into the standard string form. */
export async function conformTwitchTokenResponse(response: Response): Promise<Response> {
  if (!response.ok) return response
  const body = (await response
    .clone()
    .json()
    .catch(() => undefined)) as { scope?: unknown } | undefined
  if (!body || !Array.isArray(body.scope)) return response
  const fixed = { ...body, scope: body.scope.join(" ") }
  return new Response(JSON.stringify(fixed), {
    status: response.status,
    headers: response.headers,
  })
}

export default function Twitch(
  options: OIDCUserConfig<TwitchProfile> = {},
): OIDCConfig<TwitchProfile> {
  return oidcProvider<TwitchProfile>(
    {
      id: "twitch",
      name: "Twitch",
      issuer: "https://id.twitch.tv/oauth2",
      authorization: {
        params: {
          scope: "openid user:read:email",
          claims: {
            id_token: {
              email: null,
              email_verified: null,
              picture: null,
              preferred_username: null,
            },
          },
        },
      },
      token: { conform: conformTwitchTokenResponse },
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile(profile) {
        return {
          id: profile.sub,
          name: profile.preferred_username,
          email: profile.email ?? null,
          image: profile.picture ?? null,
        }
      },
      style: { bg: "#65459B", text: "#fff" },
    },
    options,
  )
}
