/**
 * Client authentication at the token endpoint (RFC 6749 §2.3.1), through oauth4webapi:
 * `client_secret_basic` by default (form-encoded id and secret, as Auth.js sends them),
 * `client_secret_post`, or `none` for public clients (PKCE is then the only proof).
 */
import * as o from "oauth4webapi"
import type { ResolvedOAuthProvider } from "./provider.js"

export function clientAuthentication(provider: ResolvedOAuthProvider): o.ClientAuth {
  switch (provider.clientAuthMethod) {
    case "client_secret_post":
      return o.ClientSecretPost(provider.clientSecret!)
    case "none":
      return o.None()
    default:
      return o.ClientSecretBasic(provider.clientSecret!)
  }
}

/** The oauth4webapi client record (the secret stays in the `ClientAuth` closure). */
export function clientOf(provider: ResolvedOAuthProvider): o.Client {
  return { client_id: provider.clientId }
}
