/**
 * Okta (OpenID Connect). Set `issuer` to your org or custom authorization server, e.g. `https://dev-123.okta.com/oauth2/default`.
 * https://developer.okta.com/docs/reference/api/oidc/ — claims: https://developer.okta.com/docs/api/openapi/okta-oauth/guides/overview/#id-token
 *
 * @module @latchkey/core/providers/okta
 */
import {
  type OIDCConfig,
  type OIDCUserConfig,
  oidcProvider,
  type StandardOIDCProfile,
  standardOidcProfile,
} from "./oauth.js"

/** ID-token claims of an Okta user. */
export type OktaProfile = StandardOIDCProfile

export default function Okta(options: OIDCUserConfig<OktaProfile> = {}): OIDCConfig<OktaProfile> {
  return oidcProvider<OktaProfile>(
    { id: "okta", name: "Okta", profile: standardOidcProfile, style: { bg: "#000", text: "#fff" } },
    options,
  )
}
