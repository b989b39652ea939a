/**
 * GitLab (OAuth 2; gitlab.com or a self-managed instance via the endpoint URLs).
 * Endpoints: https://docs.gitlab.com/api/oauth2/
 * Profile: https://docs.gitlab.com/api/users/#retrieve-the-current-user
 *
 * @module @latchkey/core/providers/gitlab
 */
import { type OAuthConfig, type OAuthUserConfig, oauthProvider } from "./oauth.js"

/** `GET /api/v4/user`. */
export interface GitLabProfile {
  id: number
  username: string
  name: string
  email: string | null
  avatar_url: string | null
  state?: string
  web_url?: string
  confirmed_at?: string | null
  [key: string]: unknown
}

export default function GitLab(
  options: OAuthUserConfig<GitLabProfile> = {},
): OAuthConfig<GitLabProfile> {
  return oauthProvider<GitLabProfile>(
    {
      id: "gitlab",
      name: "GitLab",
      authorization: { url: "https://gitlab.com/oauth/authorize", params: { scope: "read_user" } },
      token: "https://gitlab.com/oauth/token",
      userinfo: "https://gitlab.com/api/v4/user",
      profile(profile) {
        return {
          id: String(profile.id),
          name: profile.name ?? profile.username,
          email: profile.email,
          image: profile.avatar_url,
        }
      },
      // GitLab's `email` is the primary address, which must be confirmed before it is set.
      isEmailVerified: (profile) => typeof profile.confirmed_at === "string",
      style: { bg: "#FC6D26", text: "#fff" },
    },
    options,
  )
}
