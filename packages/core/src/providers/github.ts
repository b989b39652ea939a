/**
 * GitHub (OAuth App or GitHub App user tokens).
 * Endpoints: https://docs.github.com/en/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps
 * Profile: https://docs.github.com/en/rest/users/users#get-the-authenticated-user
 * Emails: https://docs.github.com/en/rest/users/emails#list-email-addresses-for-the-authenticated-user
 *
 * The email is the profile's public email if GitHub lists it as verified, else the primary
 * address if (and only if) it is verified. Auth.js falls back to any address, verified or not,
 * and crashes when the list is empty.
 *
 * @module @latchkey/core/providers/github
 */
import { type OAuthConfig, type OAuthUserConfig, oauthProvider, type TokenSet } from "./oauth.js"

/** `GET /user` (the fields Latchkey reads, plus everything else GitHub sends). */
export interface GitHubProfile {
  login: string
  id: number
  node_id?: string
  avatar_url: string
  name: string | null
  email: string | null
  /** Latchkey: whether `email` is verified according to `/user/emails`. */
  email_verified?: boolean
  [key: string]: unknown
}

/** One entry of `GET /user/emails`. */
export interface GitHubEmail {
  email: string
  primary: boolean
  verified: boolean
  visibility: "public" | "private" | null
}

export interface GitHubOptions extends OAuthUserConfig<GitHubProfile> {
  /** GitHub Enterprise Server: `https://github.example.com` (API under `/api/v3`). */
  enterprise?: { baseUrl?: string }
}

/** The email to trust: the public one if verified, else the primary one if verified, else none. */
export function pickGitHubEmail(
  publicEmail: string | null,
  emails: readonly GitHubEmail[] | null,
): { email: string | null; verified: boolean } {
  const list = Array.isArray(emails) ? emails : []
  if (publicEmail) {
    const entry = list.find((e) => e.email.toLowerCase() === publicEmail.toLowerCase())
    return { email: publicEmail, verified: entry?.verified === true }
  }
  const primary = list.find((e) => e.primary && e.verified)
  return primary ? { email: primary.email, verified: true } : { email: null, verified: false }
}

export default function GitHub(options: GitHubOptions = {}): OAuthConfig<GitHubProfile> {
  const base = options.enterprise?.baseUrl?.replace(/\/+$/, "")
  const web = base ?? "https://github.com"
  const api = base ? `${base}/api/v3` : "https://api.github.com"
  const { enterprise: _enterprise, ...rest } = options
  return oauthProvider<GitHubProfile>(
    {
      id: "github",
      name: "GitHub",
      authorization: {
        url: `${web}/login/oauth/authorize`,
        params: { scope: "read:user user:email" },
      },
      token: `${web}/login/oauth/access_token`,
      userinfo: {
        url: `${api}/user`,
        async request({ tokens, provider }) {
          const url = provider.userinfo.url!
          const headers = githubHeaders(tokens)
          const response = await provider.fetch(url, { headers })
          if (!response.ok) throw new Error(`GitHub /user answered ${response.status}`)
          const profile = (await response.json()) as GitHubProfile
          // Always asked: it is the only place GitHub says whether an address is verified.
          // Without the user:email scope it fails; a public email then stays unverified.
          const emailsUrl = new URL(`${url.href.replace(/\/+$/, "")}/emails`)
          let emails: GitHubEmail[] | null = null
          const res = await provider.fetch(emailsUrl, { headers })
          if (res.ok) {
            const body: unknown = await res.json()
            if (Array.isArray(body)) emails = body as GitHubEmail[]
          } else {
            await res.body?.cancel()
          }
          const picked = pickGitHubEmail(profile.email, emails)
          return { ...profile, email: picked.email, email_verified: picked.verified }
        },
      },
      profile(profile) {
        return {
          id: String(profile.id),
          name: profile.name ?? profile.login,
          email: profile.email,
          image: profile.avatar_url,
        }
      },
      isEmailVerified: (profile) => profile.email_verified === true,
      style: { bg: "#24292f", text: "#fff" },
    },
    rest,
  )
}

function githubHeaders(tokens: TokenSet): Record<string, string> {
  return {
    authorization: `Bearer ${tokens.access_token}`,
    accept: "application/vnd.github+json",
    "user-agent": "latchkey",
    "x-github-api-version": "2022-11-28",
  }
}
