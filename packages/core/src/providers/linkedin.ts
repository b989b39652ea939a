/**
 * LinkedIn ("Sign In with LinkedIn using OpenID Connect").
 * https://learn.microsoft.com/en-us/linkedin/consumer/integrations/self-serve/sign-in-with-linkedin-v2
 *
 * @module @latchkey/core/providers/linkedin
 */
import { type OIDCConfig, type OIDCUserConfig, oidcProvider } from "./oauth.js"

export interface LinkedInProfile {
  sub: string
  name?: string
  given_name?: string
  family_name?: string
  picture?: string
  locale?: string | { country: string; language: string }
  email?: string
  email_verified?: boolean
  [claim: string]: unknown
}

export default function LinkedIn(
  options: OIDCUserConfig<LinkedInProfile> = {},
): OIDCConfig<LinkedInProfile> {
  return oidcProvider<LinkedInProfile>(
    {
      id: "linkedin",
      name: "LinkedIn",
      issuer: "https://www.linkedin.com/oauth",
      wellKnown: "https://www.linkedin.com/oauth/.well-known/openid-configuration",
      authorization: { params: { scope: "openid profile email" } },
      client: { token_endpoint_auth_method: "client_secret_post" },
      profile(profile) {
        return {
          id: profile.sub,
          name: profile.name ?? null,
          email: profile.email ?? null,
          image: profile.picture ?? null,
        }
      },
      style: { bg: "#069", text: "#fff" },
    },
    options,
  )
}
