/**
 * Server bodies of the actions. Each one builds a form request for the core (see
 * `internal-request.ts`), lets the core decide (CSRF, `redirect` callback on `callbackUrl`,
 * provider flow), applies its cookies, and ends with a real 303 redirect so the same code serves
 * `<Form>` submissions with JavaScript (client navigation) and without (full page load).
 */
import type { RequestEventCommon } from "@builder.io/qwik-city"
import type { Session } from "@latchkey/core"
import { basePathOf } from "./config.js"
import { callCore, redirectUrlOf } from "./internal-request.js"
import { currentPage, redirectTo } from "./redirect.js"
import type { SignInInput, SignOutInput, UpdateSessionInput } from "./schemas.js"
import { setSession } from "./shared-map.js"
import type { QwikAuthConfig } from "./types.js"

/** Fields the binding owns in the form body; credentials cannot override them. */
const reservedFields = new Set(["callbackUrl", "csrfToken"])

function providerType(config: QwikAuthConfig, id: string): string | undefined {
  for (const p of config.providers) {
    const provider = typeof p === "function" ? p() : p
    if (provider.id === id) return provider.type
  }
  return undefined
}

function coreFailure(event: RequestEventCommon, status: number): never {
  // The core only fails an internal request on a bad request or a broken configuration.
  throw event.error(status === 400 ? 400 : 500, "Authentication service error")
}

/**
 * After a failed sign-in the core sends the user to the sign-in page with `?error=`; keep the
 * page they were heading to, as the core does when it redirects to `pages.signIn` itself.
 */
function keepCallbackUrl(
  url: string,
  callbackUrl: string,
  config: QwikAuthConfig,
  origin: string,
): string {
  const signInPage = config.pages?.signIn
  if (!signInPage) return url
  const target = new URL(url, origin)
  if (target.origin !== origin || target.pathname !== new URL(signInPage, origin).pathname)
    return url
  if (!target.searchParams.has("error") || target.searchParams.has("callbackUrl")) return url
  target.searchParams.set("callbackUrl", callbackUrl)
  return target.href
}

export async function signIn(
  event: RequestEventCommon,
  config: QwikAuthConfig,
  input: SignInInput,
): Promise<void> {
  const { providerId, options, authorizationParams } = input
  const { redirectTo: optionRedirect, ...fields } = options ?? {}
  const callbackUrl = optionRedirect ?? input.redirectTo ?? currentPage(event)
  const body = new URLSearchParams({ callbackUrl })
  for (const [key, value] of Object.entries(fields)) {
    if (!reservedFields.has(key) && value !== undefined) body.set(key, String(value))
  }
  // Any provider of type "credentials" signs in directly, whatever its id.
  const isCredentials =
    providerId !== undefined && providerType(config, providerId) === "credentials"
  const action = isCredentials ? "callback" : "signin"
  const path = `${basePathOf(config)}/${action}${providerId ? `/${encodeURIComponent(providerId)}` : ""}`
  const result = await callCore(event, config, {
    path,
    query: isCredentials ? undefined : authorizationParams?.toString(),
    body,
  })
  const url = redirectUrlOf(result)
  if (url === null) coreFailure(event, result.status)
  redirectTo(event, keepCallbackUrl(url, callbackUrl, config, event.url.origin))
}

export async function signOut(
  event: RequestEventCommon,
  config: QwikAuthConfig,
  input: SignOutInput,
): Promise<void> {
  const callbackUrl = input.redirectTo ?? currentPage(event)
  const result = await callCore(event, config, {
    path: `${basePathOf(config)}/signout`,
    body: new URLSearchParams({ callbackUrl }),
  })
  const url = redirectUrlOf(result)
  if (url === null) coreFailure(event, result.status)
  setSession(event, null)
  redirectTo(event, url)
}

/**
 * The session `update` trigger (`POST <basePath>/session` with `data`), run from the server so it
 * works from a plain form. The fresh session replaces the one loaded for this request.
 */
export async function updateSession(
  event: RequestEventCommon,
  config: QwikAuthConfig,
  input: UpdateSessionInput,
): Promise<Session | null> {
  const result = await callCore(event, config, {
    path: `${basePathOf(config)}/session`,
    body: { data: input.data },
  })
  if (result.status !== 200) coreFailure(event, result.status)
  const session = (result.body as Session | null) ?? null
  setSession(event, session)
  return session
}
