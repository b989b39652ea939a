/**
 * Server bodies of the actions. Each one builds a form request for the core (see
 * `internal-request.ts`), lets the core decide (CSRF, `redirect` callback on `callbackUrl`,
 * provider flow), applies its cookies, and ends in a navigation (`redirect.ts`), so the same code
 * serves `<Form>` with and without JavaScript and `action.submit()` from an event handler.
 *
 * A sign-in or sign-out that fails navigates exactly as a page load would: to the sign-in page
 * (`pages.signIn` or the built-in one) or the error page with `?error=<type>` (and `&code=` for
 * `CredentialsSignin`). Input that fails validation never reaches here: Qwik City returns
 * `{ failed: true, fieldErrors, formErrors }` as the action's value.
 */
import type { RequestEventAction, RequestEventCommon } from "@builder.io/qwik-city"
import type { Session } from "@latchkey/core"
import { basePathOf } from "./config.js"
import { callCore, redirectUrlOf } from "./internal-request.js"
import { currentPage, navigate } from "./redirect.js"
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

/**
 * Where a core answer that is not a redirect (a broken configuration, an unknown provider, an
 * untrusted host, a refused CSRF check) sends the user: the page for its error type, as the core
 * itself would for a page request. Its body carries the client-safe type; the log has the detail.
 */
function failureUrl(config: QwikAuthConfig, origin: string, body: unknown): string {
  // A refusal the user can recover from (a failed CSRF or OAuth check) names the page to start
  // again from; only a page of this app is followed.
  const named = (body as { url?: unknown } | null)?.url
  if (typeof named === "string" && URL.canParse(named) && new URL(named).origin === origin) {
    return named
  }
  const type = (body as { error?: { type?: unknown } } | null)?.error?.type
  const error = typeof type === "string" && /^\w{1,64}$/.test(type) ? type : "Configuration"
  // A refused CSRF check is a sign-in problem (the core sends it to the sign-in page too).
  const [custom, builtIn] =
    error === "MissingCSRF" ? [config.pages?.signIn, "signin"] : [config.pages?.error, "error"]
  const url = new URL(custom ?? `${basePathOf(config)}/${builtIn}`, origin)
  url.searchParams.set("error", error)
  return url.href
}

/** The URL a core call sends the browser to: its redirect, or the page for its failure. */
function destination(
  result: { status: number; body: unknown },
  config: QwikAuthConfig,
  origin: string,
): string {
  return redirectUrlOf(result) ?? failureUrl(config, origin, result.body)
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
  const origin = event.url.origin
  const url = keepCallbackUrl(destination(result, config, origin), callbackUrl, config, origin)
  navigate(event, url, basePathOf(config))
}

export async function signOut(
  event: RequestEventCommon,
  config: QwikAuthConfig,
  input: SignOutInput,
): Promise<void> {
  const callbackUrl = input.redirectTo ?? currentPage(event)
  const body = new URLSearchParams({ callbackUrl })
  if (input.everywhere) body.set("everywhere", "true")
  const result = await callCore(event, config, { path: `${basePathOf(config)}/signout`, body })
  if (redirectUrlOf(result) !== null) setSession(event, null)
  navigate(event, destination(result, config, event.url.origin), basePathOf(config))
}

/**
 * The session `update` trigger (`POST <basePath>/session` with `data`), run from the server so it
 * works from a plain form. The fresh session replaces the one loaded for this request.
 */
export async function updateSession(
  event: RequestEventAction,
  config: QwikAuthConfig,
  input: UpdateSessionInput,
) {
  const result = await callCore(event, config, {
    path: `${basePathOf(config)}/session`,
    body: { data: input.data },
  })
  if (result.status !== 200) {
    // The core answers a failed update with `null` and has logged why; the page keeps its
    // session and the action value says the update did not happen.
    return event.fail(result.status === 403 ? 403 : 400, {
      formErrors: ["The session could not be updated."],
    })
  }
  const session = (result.body as Session | null) ?? null
  setSession(event, session)
  return { session }
}
