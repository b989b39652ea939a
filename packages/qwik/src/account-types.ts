/**
 * Public types of the account loader and actions (`useAccount`, `useRenamePasskey`, …): the
 * core's `GET <basePath>/account` answer as the page receives it (the core's own view types, so
 * the two cannot drift; dates are ISO 8601 strings), and the failure an action returns.
 *
 * @module @latchkey/qwik
 */

import type { AccountView, DeviceSession, LinkedAccountView, PasskeyView } from "@latchkey/core"

/** A passkey of the signed-in user. `id` is the credential ID (base64url). @public */
export type AccountPasskey = PasskeyView

/**
 * A device signed in to the account. `id` is a public id, never the session token; `current`
 * marks the session of the request that loaded the page ("this device"); `userAgent` is coarse
 * ("Firefox on Linux").
 *
 * @public
 */
export type AccountSession = DeviceSession

/** A linked sign-in method (an OAuth/OIDC account). @public */
export type LinkedAccount = LinkedAccountView

/**
 * What `useAccount()` yields when signed in: the core's `GET <basePath>/account` answer. A
 * section is `null` when the app's adapter (or store) lacks the methods it needs; the
 * configuration check names them. `recentAuth.authTime` is when this session signed in
 * (seconds since the epoch), `null` when unknown; changes need `recentAuth.recent`.
 *
 * @public
 */
export type AccountData = AccountView

/**
 * The error types an account action can fail with (`value.error.type`). `Invalid` is input the
 * core refused (malformed), `Error` anything unexpected.
 *
 * @public
 */
export type AccountErrorType =
  | "ReauthenticationRequired"
  | "SessionRequired"
  | "MissingCSRF"
  | "AccountItemNotFound"
  | "LastSignInMethod"
  | "NotSupportedByAdapter"
  | "RateLimited"
  | "PasswordRejected"
  | "CredentialsSignin"
  | "Invalid"
  | "Error"

/**
 * What a failed account action returns (Qwik's `fail()`: `value.failed === true`).
 * `error.message` is written for the person using the page; `formErrors` holds the same message,
 * so one `value.formErrors` check covers this and an input Qwik City's validation refused.
 * `signInUrl` (on `ReauthenticationRequired` and `SessionRequired`) is the sign-in page with
 * `callbackUrl` back to this page and, for a stale sign-in, `reauth=1`.
 *
 * @public
 */
export interface AccountActionFailure {
  /**
   * `reason` on `PasswordRejected`: `too-short`, `too-long`, `email` (the account's own address
   * or its local part), `common`, `breached`, `missing`.
   */
  error: { type: AccountErrorType; message: string; reason?: string }
  formErrors: string[]
  signInUrl?: string
}

/** What a successful account action returns. @public */
export interface AccountActionSuccess {
  ok: true
}

/** @public */
export interface RequireRecentAuthOptions {
  /** Seconds since sign-in that still count as recent. Default: `session.recentAuthMaxAge` (600). */
  maxAge?: number
  /** Authentication methods (`amr` values) the sign-in must have had, e.g. `["otp"]`. */
  factors?: readonly string[]
}

/**
 * What `requireRecentAuth` resolves to when the sign-in is recent: the user's id, the sign-in
 * time (seconds since the epoch) and its methods.
 *
 * @public
 */
export interface RecentSignIn {
  userId: string
  authTime: number | undefined
  amr: readonly string[] | undefined
}
