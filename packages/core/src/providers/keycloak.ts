/**
 * Keycloak (OpenID Connect). Set `issuer` to the realm, e.g. `https://sso.example.com/realms/myrealm`.
 * https://www.keycloak.org/securing-apps/oidc-layers
 *
 * @module @latchkey/core/providers/keycloak
 */
import {
  type OIDCConfig,
  type OIDCUserConfig,
  oidcProvider,
  type StandardOIDCProfile,
  standardOidcProfile,
} from "./oauth.js"

/** ID-token claims of a Keycloak user. */
export type KeycloakProfile = StandardOIDCProfile

export default function Keycloak(
  options: OIDCUserConfig<KeycloakProfile> = {},
): OIDCConfig<KeycloakProfile> {
  return oidcProvider<KeycloakProfile>(
    {
      id: "keycloak",
      name: "Keycloak",
      profile: standardOidcProfile,
      style: { bg: "#000", text: "#fff" },
    },
    options,
  )
}
