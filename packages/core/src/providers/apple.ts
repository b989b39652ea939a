/**
 * Sign in with Apple (OpenID Connect, `response_mode=form_post`).
 * https://developer.apple.com/documentation/sign_in_with_apple/request_an_authorization_to_the_sign_in_with_apple_server
 * Token claims: https://developer.apple.com/documentation/signinwithapple/authenticating-users-with-sign-in-with-apple
 *
 * `clientSecret` is the ES256 client-secret JWT you generate from your Apple key. Apple sends
 * the user's name only on the first sign-in, as a `user` JSON parameter next to the code.
 *
 * @module @latchkey/core/providers/apple
 */
import { type OIDCConfig, type OIDCUserConfig, oidcProvider } from "./oauth.js"

export interface AppleProfile {
  iss: string
  aud: string
  sub: string
  email?: string
  /** Apple sends `"true"`/`"false"` strings (or booleans). */
  email_verified?: "true" | "false" | boolean
  is_private_email?: "true" | "false" | boolean
  /** From the first sign-in's `user` parameter (unsigned, name only). */
  user?: { name?: { firstName?: string; lastName?: string }; email?: string }
  [claim: string]: unknown
}

export default function Apple(
  options: OIDCUserConfig<AppleProfile> = {},
): OIDCConfig<AppleProfile> {
  return oidcProvider<AppleProfile>(
    {
      id: "apple",
      name: "Apple",
      issuer: "https://appleid.apple.com",
      authorization: { params: { scope: "name email", response_mode: "form_post" } },
      client: { token_endpoint_auth_method: "client_secret_post" },
      userParam: true,
      profile(profile) {
        const first = profile.user?.name?.firstName
        const last = profile.user?.name?.lastName
        const name = [first, last].filter(Boolean).join(" ")
        return {
          id: profile.sub,
          name: name || null,
          // The email comes from the signed ID token, never from the `user` parameter.
          email: profile.email ?? null,
          image: null,
        }
      },
      style: { bg: "#000", text: "#fff" },
    },
    options,
  )
}
