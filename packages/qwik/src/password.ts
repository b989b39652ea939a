/**
 * Server bodies of the password actions that need no session (`useSignUp`,
 * `useResendVerification`, `useForgotPassword`, `useResetPassword`). They call the core's
 * `POST <basePath>/password/<op>` through internal requests, so the core alone decides (CSRF by
 * the action's own `Origin`, limits, the answer that is the same for every address).
 *
 * Like the account actions they do not navigate: `{ ok: true }` or Qwik's `fail()` with a typed
 * error and a message for the person. A reset signs this browser in (the core's cookies are set
 * on the response) and returns `{ ok: true, url }`, where the app may send the person next.
 */
import type { RequestEventAction } from "@builder.io/qwik-city"
import { basePathOf } from "./config.js"
import { callCore } from "./internal-request.js"
import type { QwikAuthConfig } from "./types.js"

/** The operations of `POST <basePath>/password/<op>`. */
export type PasswordOp = "signup" | "resend" | "forgot" | "reset"

/**
 * The error types a password action can fail with (`value.error.type`): `PasswordRejected` (the
 * policy; `error.reason` says which rule), `EmailSignInError` (not an address), `Verification`
 * (the reset link is invalid, expired or used), `AccountNotLinked` (the account's address was
 * never confirmed and the app keeps its password itself), `RateLimited`, `MissingCSRF`, `Invalid`, `Error`.
 *
 * @public
 */
export type PasswordErrorType =
  | "PasswordRejected"
  | "EmailSignInError"
  | "Verification"
  | "AccountNotLinked"
  | "RateLimited"
  | "MissingCSRF"
  | "Invalid"
  | "Error"

/** @public */
export interface PasswordActionFailure {
  error: { type: PasswordErrorType; message: string; reason?: string }
  formErrors: string[]
}

/** @public */
export interface PasswordActionSuccess {
  ok: true
  /** After a reset: where the core would send the now signed-in browser. */
  url?: string
}

const messages: Record<PasswordErrorType, string> = {
  PasswordRejected: "Choose another password.",
  EmailSignInError: "Enter a valid email address.",
  Verification:
    "This link is no longer valid: it may have been used or have expired. Ask for a new one.",
  AccountNotLinked:
    "This address belongs to an account whose address was never confirmed and whose password this app keeps. Sign in with that password, then confirm the address.",
  RateLimited: "Too many attempts. Wait a few minutes and try again.",
  MissingCSRF: "This page expired. Reload it and try again.",
  Invalid: "That request was not valid. Reload the page and try again.",
  Error: "Something went wrong. Please try again.",
}

/** The typed error of a core answer (`{ error: "<type>" }` or `{ error: { type } }`). */
export function passwordErrorOf(status: number, body: unknown): PasswordActionFailure["error"] {
  const raw = (body as { error?: unknown; message?: unknown; reason?: unknown } | null) ?? {}
  const named =
    typeof raw.error === "string"
      ? raw.error
      : typeof (raw.error as { type?: unknown } | null)?.type === "string"
        ? (raw.error as { type: string }).type
        : undefined
  const type: PasswordErrorType =
    named !== undefined && Object.hasOwn(messages, named)
      ? (named as PasswordErrorType)
      : status === 429
        ? "RateLimited"
        : status >= 400 && status < 500
          ? "Invalid"
          : "Error"
  // The policy's message is the core's own, written for the person (e.g. "Use at least 8
  // characters…"); every other message is the binding's fixed text.
  const message =
    type === "PasswordRejected" && typeof raw.message === "string" ? raw.message : messages[type]
  return typeof raw.reason === "string" && type === "PasswordRejected"
    ? { type, message, reason: raw.reason }
    : { type, message }
}

export async function passwordAction(
  event: RequestEventAction,
  config: QwikAuthConfig,
  op: PasswordOp,
  input: Record<string, string | undefined>,
) {
  const body = Object.fromEntries(
    Object.entries(input).filter((entry): entry is [string, string] => entry[1] !== undefined),
  )
  const result = await callCore(event, config, {
    path: `${basePathOf(config)}/password/${op}`,
    body,
    returnRedirect: false,
  })
  const answer = result.body as { ok?: unknown; url?: unknown } | null
  if (result.status === 200 && answer?.ok === true) {
    const success: PasswordActionSuccess =
      typeof answer.url === "string" ? { ok: true, url: answer.url } : { ok: true }
    return success
  }
  const error = passwordErrorOf(result.status, result.body)
  const failure: PasswordActionFailure = { error, formErrors: [error.message] }
  const status = result.status >= 400 && result.status < 600 ? result.status : 500
  return event.fail(status, failure)
}
