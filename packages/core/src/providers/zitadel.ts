/**
 * ZITADEL (OpenID Connect). Set `issuer` to your instance, e.g. `https://my-instance.zitadel.cloud`.
 * https://zitadel.com/docs/apis/openidoauth/claims
 *
 * @module @latchkey/core/providers/zitadel
 */
import {
  type OIDCConfig,
  type OIDCUserConfig,
  oidcProvider,
  type StandardOIDCProfile,
  standardOidcProfile,
} from "./oauth.js"

/** ID-token claims of a ZITADEL user. */
export type ZitadelProfile = StandardOIDCProfile

export default function Zitadel(
  options: OIDCUserConfig<ZitadelProfile> = {},
): OIDCConfig<ZitadelProfile> {
  return oidcProvider<ZitadelProfile>(
    {
      id: "zitadel",
      name: "ZITADEL",
      profile: standardOidcProfile,
      style: { bg: "#0A0A0A", text: "#fff" },
    },
    options,
  )
}
