/**
 * Server bodies of the account loader and actions. They call the core's account API
 * (`GET <basePath>/account`, `POST <basePath>/account/<op>`) through internal requests, so the
 * core alone decides who may do what (session, CSRF by the action's own `Origin`, recent
 * sign-in, ownership of the id), exactly as for a client calling it over HTTP.
 *
 * Unlike sign-in and sign-out, an account action does not navigate: it returns `{ ok: true }` or
 * Qwik's `fail()` with a typed error, and the page (re-rendered with fresh loader data, with or
 * without JavaScript) shows the result where the user acted. A stale sign-in is such a failure
 * too, carrying the sign-in URL to confirm with: redirecting from inside the action would drop
 * what the user typed and take them off the page without saying why.
 */
import type { RequestEventAction, RequestEventCommon } from "@builder.io/qwik-city"
import { getSession, requireRecentAuth } from "@latchkey/core"
import { AuthError } from "@latchkey/core/errors"
import type {
  AccountActionFailure,
  AccountActionSuccess,
  AccountData,
  AccountErrorType,
  RecentSignIn,
  RequireRecentAuthOptions,
} from "./account-types.js"
import { basePathOf } from "./config.js"
import { applyResponseCookies } from "./cookies.js"
import { buildCoreGet, callCore, cookieHeader } from "./internal-request.js"
import { currentPage } from "./redirect.js"
import { setSession } from "./shared-map.js"
import type { QwikAuthConfig } from "./types.js"

/** The operations of `POST <basePath>/account/<op>`. */
export type AccountOp =
  | "passkey-rename"
  | "passkey-delete"
  | "session-revoke"
  | "sessions-revoke-others"
  | "account-unlink"
  | "password-set"
  | "password-change"
  | "password-remove"
  | "email-change"

/** What each error type tells the person on the page; the core's own text is for developers. */
const messages: Record<AccountErrorType, string> = {
  ReauthenticationRequired:
    "For your security, please sign in again to confirm it's you, then repeat the change.",
  SessionRequired: "You are signed out. Sign in to manage your account.",
  MissingCSRF: "This page expired. Reload it and try again.",
  AccountItemNotFound: "That item no longer exists. Reload the page to see the current list.",
  LastSignInMethod:
    "This is the last way to sign in to your account. Add another one (a passkey or a linked account) before removing it.",
  NotSupportedByAdapter: "This app does not support that change.",
  RateLimited: "Too many attempts. Wait a moment and try again.",
  PasswordRejected: "Choose another password.",
  CredentialsSignin: "The current password is not right.",
  Invalid: "That request was not valid. Reload the page and try again.",
  Error: "Something went wrong. Please try again.",
}

const byStatus: Record<number, AccountErrorType> = {
  400: "Invalid",
  401: "SessionRequired",
  403: "MissingCSRF",
  404: "AccountItemNotFound",
  409: "LastSignInMethod",
  429: "RateLimited",
  501: "NotSupportedByAdapter",
}

/** The error type of a core answer: `{ error: "<type>" }` or `{ error: { type } }`. */
export function errorTypeOf(status: number, body: unknown): AccountErrorType {
  const error = (body as { error?: unknown } | null)?.error
  const named =
    typeof error === "string"
      ? error
      : typeof (error as { type?: unknown } | null)?.type === "string"
        ? (error as { type: string }).type
        : undefined
  if (named !== undefined && Object.hasOwn(messages, named)) return named as AccountErrorType
  return byStatus[status] ?? (status >= 400 && status < 500 ? "Invalid" : "Error")
}

/**
 * The sign-in page (`pages.signIn` or the built-in one) with `callbackUrl` back to the page the
 * user is on and, for a sign-in that is no longer recent, `reauth=1`.
 */
export function signInUrl(
  event: RequestEventCommon,
  config: QwikAuthConfig,
  reauth: boolean,
): string {
  const url = new URL(config.pages?.signIn ?? `${basePathOf(config)}/signin`, event.url.origin)
  url.searchParams.set("callbackUrl", currentPage(event))
  if (reauth) url.searchParams.set("reauth", "1")
  return url.origin === event.url.origin ? `${url.pathname}${url.search}` : url.href
}

/** `useAccount`: the account of the signed-in user, or `null` when signed out. */
export async function loadAccount(
  event: RequestEventCommon,
  config: QwikAuthConfig,
): Promise<AccountData | null> {
  const result = await callCore(event, config, buildCoreGet(event, `${basePathOf(config)}/account`))
  if (result.status === 200) return result.body as AccountData
  if (result.status === 401) return null
  // Anything else is the app's problem (a configuration error the core has logged): the page
  // shows "signed out" rather than failing to render.
  return null
}

/** One account action: the core's answer as `{ ok: true }` or a typed `fail()`. */
export async function accountAction(
  event: RequestEventAction,
  config: QwikAuthConfig,
  op: AccountOp,
  input: Record<string, string>,
) {
  const result = await callCore(event, config, {
    path: `${basePathOf(config)}/account/${op}`,
    body: input,
    returnRedirect: false,
  })
  if (result.status === 200 && (result.body as { ok?: unknown } | null)?.ok === true) {
    // Ending a session, or changing the password (which re-issues this one), changes the
    // session read at the start of the request.
    if (op === "session-revoke" || op === "password-change") await reloadSession(event, config)
    const success: AccountActionSuccess = { ok: true }
    return success
  }
  const type = errorTypeOf(result.status, result.body)
  const failure: AccountActionFailure = {
    error: policyRefusal(type, result.body) ?? { type, message: messages[type] },
    formErrors: [],
  }
  failure.formErrors.push(failure.error.message)
  if (type === "ReauthenticationRequired" || type === "SessionRequired") {
    failure.signInUrl = signInUrl(event, config, type === "ReauthenticationRequired")
  }
  const status = result.status >= 400 && result.status < 600 ? result.status : 500
  return event.fail(status, failure)
}

/**
 * A password the policy refused: the core's own message (written for the person: "Use at least
 * 8 characters…") and the rule (`reason`), instead of the binding's generic text.
 */
function policyRefusal(
  type: AccountErrorType,
  body: unknown,
): AccountActionFailure["error"] | undefined {
  if (type !== "PasswordRejected") return undefined
  const { message, reason } = (body ?? {}) as { message?: unknown; reason?: unknown }
  if (typeof message !== "string") return undefined
  return typeof reason === "string" ? { type, message, reason } : { type, message }
}

/**
 * Ending a session may have ended this one (the user named "this device"): the session read at
 * the start of the request is replaced by a fresh read, so the page renders signed out.
 */
async function reloadSession(event: RequestEventCommon, config: QwikAuthConfig): Promise<void> {
  const headers = new Headers(event.request.headers)
  const cookie = cookieHeader(event)
  if (cookie === null) headers.delete("cookie")
  else headers.set("cookie", cookie)
  const { session, cookies } = await getSession(new Request(event.url, { headers }), config)
  applyResponseCookies(event, cookies)
  setSession(event, session)
}

/** The server half of the binding's `requireRecentAuth` (see `recent-auth.ts`). */
export async function requireRecentSignIn(
  event: RequestEventCommon,
  config: QwikAuthConfig,
  opts: RequireRecentAuthOptions,
): Promise<RecentSignIn> {
  try {
    const { userId, authTime, amr, cookies } = await requireRecentAuth(event.request, config, opts)
    applyResponseCookies(event, cookies)
    return { userId, authTime, amr }
  } catch (error) {
    const type = error instanceof AuthError ? error.type : undefined
    if (type === "ReauthenticationRequired" || type === "SessionRequired") {
      throw event.redirect(302, signInUrl(event, config, type === "ReauthenticationRequired"))
    }
    throw error
  }
}
