/**
 * Auth0 (OpenID Connect). Set `issuer` to your tenant domain, e.g. `https://dev-abc123.us.auth0.com/`.
 * https://auth0.com/docs/authenticate/login/oidc-conformant-authentication/oidc-adoption-auth-code-flow — claims: https://auth0.com/docs/manage-users/user-accounts/user-profiles/user-profile-structure
 *
 * @module @latchkey/core/providers/auth0
 */
import {
  type OIDCConfig,
  type OIDCUserConfig,
  oidcProvider,
  type StandardOIDCProfile,
  standardOidcProfile,
} from "./oauth.js"

/** ID-token claims of an Auth0 user. */
export type Auth0Profile = StandardOIDCProfile

export default function Auth0(
  options: OIDCUserConfig<Auth0Profile> = {},
): OIDCConfig<Auth0Profile> {
  return oidcProvider<Auth0Profile>(
    {
      id: "auth0",
      name: "Auth0",
      profile: standardOidcProfile,
      style: { bg: "#EB5424", text: "#fff" },
    },
    options,
  )
}
