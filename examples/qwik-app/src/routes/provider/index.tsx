import { component$ } from "@builder.io/qwik"
import { type DocumentHead, Link, routeLoader$ } from "@builder.io/qwik-city"
import { getAccessToken, RefreshTokenError, TokenEndpointError } from "@latchkey/qwik"

const PROVIDER = "local-oidc"

type ProviderPage =
  | { state: "no-account" }
  | { state: "refused" }
  | { state: "unreachable"; type: string }
  | { state: "ok"; name: string; email: string }

/**
 * The provider's userinfo, read with the user's access token at the local OpenID Provider. Its
 * access tokens live 10 s, less than the 60 s refresh skew, so each visit refreshes the token
 * (rotating the refresh token) before the call. The token itself never leaves the server.
 */
export const useProviderPage = routeLoader$(async (event): Promise<ProviderPage> => {
  const issuer = process.env.AUTH_LOCAL_OIDC_ISSUER
  if (!issuer) return { state: "no-account" }
  try {
    const token = await getAccessToken(event, PROVIDER)
    if (!token) return { state: "no-account" }
    const response = await fetch(`${issuer}/me`, { headers: { authorization: `Bearer ${token}` } })
    if (!response.ok) return { state: "unreachable", type: `HTTP ${response.status}` }
    const info = (await response.json()) as { name?: string; email?: string }
    return { state: "ok", name: info.name ?? "", email: info.email ?? "" }
  } catch (error) {
    if (error instanceof RefreshTokenError) return { state: "refused" }
    if (error instanceof TokenEndpointError) return { state: "unreachable", type: error.type }
    throw error
  }
})

export default component$(() => {
  const page = useProviderPage()
  const value = page.value
  return (
    <section class="card">
      <p class="eyebrow">Provider API</p>
      <h1 data-testid="provider-title">Your account at the provider</h1>
      {value.state === "ok" && (
        <>
          <p>
            Read from the Local OpenID Provider's userinfo endpoint with a freshly refreshed access
            token:
          </p>
          <dl>
            <dt>Name</dt>
            <dd data-testid="provider-name">{value.name}</dd>
            <dt>Email</dt>
            <dd data-testid="provider-email">{value.email}</dd>
          </dl>
        </>
      )}
      {value.state === "no-account" && (
        <p data-testid="provider-none">
          Sign in with the Local OpenID Provider to see your account there.{" "}
          <Link href="/signin/?callbackUrl=%2Fprovider%2F">Sign in</Link>
        </p>
      )}
      {value.state === "refused" && (
        <p data-testid="provider-refused">
          The provider no longer accepts this sign-in. <Link href="/signin/">Sign in again</Link>
        </p>
      )}
      {value.state === "unreachable" && (
        <p data-testid="provider-unreachable">
          The provider could not be reached ({value.type}); try again in a moment.
        </p>
      )}
    </section>
  )
})

export const head: DocumentHead = { title: "Provider" }
