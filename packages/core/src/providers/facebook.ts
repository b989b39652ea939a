/**
 * Facebook Login (OAuth 2, Graph API).
 * https://developers.facebook.com/docs/facebook-login/guides/advanced/manual-flow
 * Profile: https://developers.facebook.com/docs/graph-api/reference/user
 *
 * Facebook does not say whether the email is verified, so email-based account linking never
 * applies to it.
 *
 * @module @latchkey/core/providers/facebook
 */
import { type OAuthConfig, type OAuthUserConfig, oauthProvider } from "./oauth.js"

export interface FacebookProfile {
  id: string
  name?: string
  email?: string
  picture?: { data?: { url?: string; height?: number; width?: number; is_silhouette?: boolean } }
  [key: string]: unknown
}

export default function Facebook(
  options: OAuthUserConfig<FacebookProfile> = {},
): OAuthConfig<FacebookProfile> {
  return oauthProvider<FacebookProfile>(
    {
      id: "facebook",
      name: "Facebook",
      authorization: {
        url: "https://www.facebook.com/v21.0/dialog/oauth",
        params: { scope: "email public_profile" },
      },
      token: "https://graph.facebook.com/v21.0/oauth/access_token",
      userinfo: {
        url: "https://graph.facebook.com/v21.0/me",
        params: { fields: "id,name,email,picture" },
      },
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile(profile) {
        return {
          id: profile.id,
          name: profile.name ?? null,
          email: profile.email ?? null,
          image: profile.picture?.data?.url ?? null,
        }
      },
      isEmailVerified: () => false,
      style: { bg: "#006aff", text: "#fff" },
    },
    options,
  )
}
