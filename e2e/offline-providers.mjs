/**
 * Preloaded into a fixture app's server (`NODE_OPTIONS=--import <this file>`) so the tests stay
 * on loopback: a `fetch` to any other host is refused (the test fails instead of reaching the
 * internet), except Google's OpenID discovery document, answered with the one Google publishes
 * (its fields the sign-in reads, as served at the URL below). `Google()` has no endpoints of its
 * own: the sign-in POST discovers them before it can redirect to Google's authorize URL.
 */
const GOOGLE_DISCOVERY = "https://accounts.google.com/.well-known/openid-configuration"
const google = {
  issuer: "https://accounts.google.com",
  authorization_endpoint: "https://accounts.google.com/o/oauth2/v2/auth",
  device_authorization_endpoint: "https://oauth2.googleapis.com/device/code",
  token_endpoint: "https://oauth2.googleapis.com/token",
  userinfo_endpoint: "https://openidconnect.googleapis.com/v1/userinfo",
  revocation_endpoint: "https://oauth2.googleapis.com/revoke",
  jwks_uri: "https://www.googleapis.com/oauth2/v3/certs",
  response_types_supported: [
    "code",
    "token",
    "id_token",
    "code token",
    "code id_token",
    "token id_token",
    "code token id_token",
    "none",
  ],
  subject_types_supported: ["public"],
  id_token_signing_alg_values_supported: ["RS256"],
  scopes_supported: ["openid", "email", "profile"],
  token_endpoint_auth_methods_supported: ["client_secret_post", "client_secret_basic"],
  claims_supported: [
    "aud",
    "email",
    "email_verified",
    "exp",
    "family_name",
    "given_name",
    "iat",
    "iss",
    "name",
    "picture",
    "sub",
  ],
  code_challenge_methods_supported: ["plain", "S256"],
  grant_types_supported: [
    "authorization_code",
    "refresh_token",
    "urn:ietf:params:oauth:grant-type:device_code",
    "urn:ietf:params:oauth:grant-type:jwt-bearer",
  ],
}

const LOOPBACK = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/

const online = globalThis.fetch
globalThis.fetch = async function offlineFetch(input, init) {
  const url = new URL(input instanceof Request ? input.url : String(input))
  if (LOOPBACK.test(url.hostname)) return online(input, init)
  if (url.href === GOOGLE_DISCOVERY) {
    return new Response(JSON.stringify(google), {
      headers: { "content-type": "application/json; charset=utf-8" },
    })
  }
  throw new TypeError(`offline test server: no request to ${url.origin} (not loopback)`)
}
