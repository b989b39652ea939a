/**
 * Cognito (OpenID Connect). Set `issuer` to the user pool, e.g. `https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbCdEf`.
 * https://docs.aws.amazon.com/cognito/latest/developerguide/amazon-cognito-user-pools-using-the-id-token.html (Cognito sends `email_verified` as a boolean or the string `"true"`)
 *
 * @module @latchkey/core/providers/cognito
 */
import {
  type OIDCConfig,
  type OIDCUserConfig,
  oidcProvider,
  type StandardOIDCProfile,
  standardOidcProfile,
} from "./oauth.js"

/** ID-token claims of a Cognito user (standard claims plus `cognito:username`). */
export type CognitoProfile = StandardOIDCProfile

export default function Cognito(
  options: OIDCUserConfig<CognitoProfile> = {},
): OIDCConfig<CognitoProfile> {
  return oidcProvider<CognitoProfile>(
    {
      id: "cognito",
      name: "Cognito",
      profile(profile) {
        const user = standardOidcProfile(profile)
        // Pools without a name attribute still have a username.
        user.name ??= (profile["cognito:username"] as string | undefined) ?? null
        return user
      },
      style: { bg: "#fff", text: "#000" },
    },
    options,
  )
}
