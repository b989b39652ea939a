/**
 * OAuth 2 and OpenID Connect providers: the option names of Auth.js v5 (so provider configs
 * written for `@auth/core` type-check), plus the helpers every preset is built with. Each
 * provider they build carries the OAuth feature (`features/oauth`), which always applies PKCE
 * (S256) and `state`, and `nonce` for OIDC, whatever `checks` says: `checks` can add a check,
 * never remove one.
 *
 * @module @latchkey/core/providers/oauth
 */

import {
  type OAuthConfig,
  type OAuthProviderConfig,
  type OAuthUserConfig,
  type OIDCConfig,
  type OIDCUserConfig,
  oauthProviderData,
  oidcProviderData,
  type ProviderDefaults,
} from "../features/oauth/client/provider-config.js"
import { oauthFeature } from "../features/oauth/index.js"
import { FEATURE } from "../kernel/feature/feature.js"
import type { Profile } from "../kernel/types/records.js"

export * from "../features/oauth/client/provider-config.js"

/** Build an OAuth 2 provider from preset defaults and the app's options. */
export function oauthProvider<P>(
  defaults: ProviderDefaults<P>,
  options: OAuthUserConfig<P> | undefined,
): OAuthConfig<P> {
  return { ...oauthProviderData(defaults, options), [FEATURE]: oauthFeature }
}

/** Build an OIDC provider from preset defaults and the app's options. */
export function oidcProvider<P>(
  defaults: ProviderDefaults<P> & { idToken?: boolean },
  options: OIDCUserConfig<P> | undefined,
): OIDCConfig<P> {
  return { ...oidcProviderData(defaults, options), [FEATURE]: oauthFeature }
}

/**
 * A generic provider, for a server with no preset: `OAuth({ id, name, type: "oidc", issuer,
 * clientId, clientSecret })`.
 */
export default function OAuth<P = Profile>(
  options: (OAuthUserConfig<P> & { type: "oauth" }) | (OIDCUserConfig<P> & { type: "oidc" }),
): OAuthProviderConfig<P> {
  const { type, ...rest } = options
  const id = typeof rest.id === "string" ? rest.id : type
  const defaults = { id, name: typeof rest.name === "string" ? rest.name : id }
  return type === "oidc"
    ? oidcProvider<P>(defaults, rest as OIDCUserConfig<P>)
    : oauthProvider<P>(defaults, rest as OAuthUserConfig<P>)
}
