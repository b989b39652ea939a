/**
 * Microsoft Entra ID (formerly Azure AD), OpenID Connect v2.0 endpoints.
 * https://learn.microsoft.com/en-us/entra/identity-platform/v2-protocols-oidc
 * ID-token claims: https://learn.microsoft.com/en-us/entra/identity-platform/id-token-claims-reference
 *
 * Set `issuer` to your tenant: `https://login.microsoftonline.com/<tenant-id>/v2.0`. The
 * multi-tenant `common`/`organizations` issuers answer with a per-tenant `iss`, which strict
 * issuer validation refuses; they are not supported yet.
 *
 * @module @latchkey/core/providers/microsoft-entra-id
 */
import { type OIDCConfig, type OIDCUserConfig, oidcProvider } from "./oauth.js"

export interface MicrosoftEntraIDProfile {
  sub: string
  oid?: string
  tid?: string
  name?: string
  preferred_username?: string
  email?: string
  [claim: string]: unknown
}

export default function MicrosoftEntraID(
  options: OIDCUserConfig<MicrosoftEntraIDProfile> = {},
): OIDCConfig<MicrosoftEntraIDProfile> {
  return oidcProvider<MicrosoftEntraIDProfile>(
    {
      id: "microsoft-entra-id",
      name: "Microsoft Entra ID",
      issuer: "https://login.microsoftonline.com/common/v2.0",
      authorization: { params: { scope: "openid profile email User.Read" } },
      profile(profile) {
        return {
          id: profile.sub,
          name: profile.name ?? null,
          // `email` is optional in Entra tokens; `preferred_username` is usually the UPN.
          email: profile.email ?? profile.preferred_username ?? null,
          image: null,
        }
      },
      // Entra does not send email_verified; an Entra email is admin-controlled, not verified.
      style: { bg: "#0072c6", text: "#fff" },
    },
    options,
  )
}
