/**
 * Authentik (OpenID Connect). Set `issuer` to the application, e.g. `https://authentik.example.com/application/o/my-app/`.
 * https://docs.goauthentik.io/docs/add-secure-apps/providers/oauth2/
 *
 * @module @latchkey/core/providers/authentik
 */
import {
  type OIDCConfig,
  type OIDCUserConfig,
  oidcProvider,
  type StandardOIDCProfile,
  standardOidcProfile,
} from "./oauth.js"

/** ID-token claims of an Authentik user. */
export type AuthentikProfile = StandardOIDCProfile

export default function Authentik(
  options: OIDCUserConfig<AuthentikProfile> = {},
): OIDCConfig<AuthentikProfile> {
  return oidcProvider<AuthentikProfile>(
    {
      id: "authentik",
      name: "Authentik",
      profile: standardOidcProfile,
      style: { bg: "#fd4b2d", text: "#fff" },
    },
    options,
  )
}
