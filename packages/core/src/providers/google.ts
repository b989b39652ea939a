/**
 * Google (OpenID Connect).
 * Discovery: https://accounts.google.com/.well-known/openid-configuration
 * Claims: https://developers.google.com/identity/openid-connect/openid-connect#an-id-tokens-payload
 *
 * @module @latchkey/core/providers/google
 */
import { type OIDCConfig, type OIDCUserConfig, oidcProvider } from "./oauth.js"

/** ID-token claims of a Google account. */
export interface GoogleProfile {
  iss: string
  sub: string
  aud: string
  azp?: string
  email: string
  email_verified: boolean
  name?: string
  given_name?: string
  family_name?: string
  picture?: string
  locale?: string
  hd?: string
  iat: number
  exp: number
  [claim: string]: unknown
}

export default function Google(
  options: OIDCUserConfig<GoogleProfile> = {},
): OIDCConfig<GoogleProfile> {
  return oidcProvider<GoogleProfile>(
    {
      id: "google",
      name: "Google",
      issuer: "https://accounts.google.com",
      profile(profile) {
        return {
          id: profile.sub,
          name: profile.name ?? null,
          email: profile.email,
          image: profile.picture ?? null,
        }
      },
      style: { bg: "#fff", text: "#000" },
    },
    options,
  )
}
