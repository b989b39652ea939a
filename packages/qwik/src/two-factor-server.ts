/**
 * Server bodies of the two-factor loader and actions. They call the core's
 * `{basePath}/two-factor/<op>` endpoints with internal requests, so the core alone decides
 * (session, CSRF by the action's own `Origin`, recent sign-in, the code, the limits), exactly as
 * for a client calling it over HTTP.
 *
 * Settings actions do not navigate: they return their data or Qwik's `fail()` with a typed error
 * (and, for a sign-in that is not recent enough, the sign-in URL to confirm with), so a `<Form>`
 * shows the result where the user acted, with or without JavaScript. The verify action ends the
 * sign-in, so it navigates like `useSignIn`.
 */
import type { RequestEventAction, RequestEventCommon } from "@builder.io/qwik-city"
import type { TwoFactorEnrollment, TwoFactorStatus } from "@latchkey/core"
import { signInUrl } from "./account.js"
import { basePathOf, resolveConfig } from "./config.js"
import { buildCoreGet, buildCoreRequest, callCore, redirectUrlOf } from "./internal-request.js"
import { navigate } from "./redirect.js"

/** The settings operations of `POST {basePath}/two-factor/<op>`. */
export type TwoFactorOp = "enroll" | "confirm" | "disable" | "regenerate"

/** The error types a two-factor action can fail with. */
export type TwoFactorErrorType =
  | "ReauthenticationRequired"
  | "SessionRequired"
  | "MissingCSRF"
  | "InvalidTwoFactorCode"
  | "TwoFactorStateError"
  | "RateLimited"
  | "Invalid"
  | "Error"

/** What a failed two-factor action returns (through `fail()`). */
export interface TwoFactorActionFailure {
  error: { type: TwoFactorErrorType; message: string }
  formErrors: string[]
  /** Where to sign in again: set for `ReauthenticationRequired` and `SessionRequired`. */
  signInUrl?: string
}

const messages: Record<TwoFactorErrorType, string> = {
  ReauthenticationRequired:
    "For your security, sign in again (with your second factor, if it is on), then repeat the change.",
  SessionRequired: "You are signed out. Sign in to manage two-factor sign-in.",
  MissingCSRF: "This page expired. Reload it and try again.",
  InvalidTwoFactorCode: "That code did not work. Check your authenticator app and try again.",
  TwoFactorStateError: "That is not possible right now. Reload the page to see the current state.",
  RateLimited: "Too many attempts. Wait a while and try again.",
  Invalid: "That request was not valid. Reload the page and try again.",
  Error: "Something went wrong. Please try again.",
}

function errorType(status: number, body: unknown): TwoFactorErrorType {
  const named = (body as { error?: unknown } | null)?.error
  if (typeof named === "string" && Object.hasOwn(messages, named)) {
    return named as TwoFactorErrorType
  }
  return status >= 400 && status < 500 ? "Invalid" : "Error"
}

/** `useTwoFactorStatus`: the signed-in user's second factor, or `null` when signed out. */
export async function loadTwoFactorStatus(
  event: RequestEventCommon,
): Promise<TwoFactorStatus | null> {
  const config = await resolveConfig(event, undefined)
  // Through callCore: after an action that re-issued the session in this same request, the
  // loader presents the new cookie, not the one the browser sent (which the core now refuses).
  const path = `${basePathOf(config)}/two-factor/status`
  const result = await callCore(event, config, buildCoreGet(event, path))
  return result.status === 200 ? (result.body as TwoFactorStatus) : null
}

/** Enroll, confirm, disable, regenerate: the core's JSON answer, or a typed `fail()`. */
export async function twoFactorSettingsAction(
  event: RequestEventAction,
  op: TwoFactorOp,
  input: Record<string, string>,
) {
  const config = await resolveConfig(event, undefined)
  // The settings answer JSON, never a navigation: no `X-Auth-Return-Redirect`.
  const request = buildCoreRequest(event, {
    path: `${basePathOf(config)}/two-factor/${op}`,
    body: input,
    returnRedirect: false,
  })
  request.headers.set("accept", "application/json")
  const response = await callCore(event, config, request)
  const body = response.body
  if (response.status === 200) {
    return body as TwoFactorEnrollment | { recoveryCodes: string[] } | { ok: true }
  }
  const type = errorType(response.status, body)
  const failure: TwoFactorActionFailure = {
    error: { type, message: messages[type] },
    formErrors: [messages[type]],
  }
  if (type === "ReauthenticationRequired" || type === "SessionRequired") {
    failure.signInUrl = signInUrl(event, config, type === "ReauthenticationRequired")
  }
  const status = response.status >= 400 && response.status < 600 ? response.status : 500
  return event.fail(status, failure)
}

/**
 * `useVerifyTwoFactor`: the code (or a recovery code) of a pending sign-in, for an app's own
 * `pages.twoFactor`. Ends in a navigation: to the callback URL once signed in, or back to the
 * code page with `?error=` (the sign-in page once the step has expired).
 */
export async function verifyTwoFactorAction(
  event: RequestEventAction,
  input: { code?: string | undefined; recoveryCode?: string | undefined },
): Promise<void> {
  const config = await resolveConfig(event, undefined)
  const body = new URLSearchParams()
  if (input.code) body.set("code", input.code)
  if (input.recoveryCode) body.set("recoveryCode", input.recoveryCode)
  const result = await callCore(event, config, {
    path: `${basePathOf(config)}/two-factor/verify`,
    body,
  })
  const url =
    redirectUrlOf(result) ??
    new URL(`${basePathOf(config)}/signin?error=InvalidTwoFactorCode`, event.url.origin).href
  navigate(event, url, basePathOf(config))
}
