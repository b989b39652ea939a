/**
 * Public types of the account loader and actions (`useAccount`, `useRenamePasskey`, …): the
 * core's `GET <basePath>/account` answer as the page receives it, and the failure an action
 * returns. Dates are ISO 8601 strings (the JSON the core sends).
 *
 * @module @latchkey/qwik
 */

/** A passkey of the signed-in user. `id` is the credential ID (base64url). @public */
export interface AccountPasskey {
  id: string
  name: string | null
  createdAt: string | null
  lastUsedAt: string | null
  backedUp: boolean
  deviceType: string | null
}

/**
 * A device signed in to the account. `id` is a public id, never the session token; `current`
 * marks the session of the request that loaded the page ("this device").
 *
 * @public
 */
export interface AccountSession {
  id: string
  createdAt: string | null
  lastSeenAt: string | null
  /** Coarse: browser and platform ("Chrome on macOS"), never the full header. */
  userAgent: string | null
  current: boolean
}

/** A linked sign-in method (an OAuth/OIDC account, or the email provider). @public */
export interface LinkedAccount {
  provider: string
  type: string
  providerAccountId: string
}

/**
 * What `useAccount()` yields when signed in. A section is `null` when the app's adapter (or
 * store) lacks the methods it needs; the configuration check names them.
 *
 * @public
 */
export interface AccountData {
  user: { id: string; name: string | null; email: string | null; image: string | null }
  /**
   * `authTime`: when this session signed in (seconds since the epoch), `null` when unknown
   * (a session issued by Auth.js). Changes need `recent`: a sign-in within `maxAge` seconds.
   */
  recentAuth: { authTime: number | null; maxAge: number; recent: boolean }
  passkeys: AccountPasskey[] | null
  sessions: AccountSession[] | null
  accounts: LinkedAccount[] | null
}

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
  error: { type: AccountErrorType; message: string }
  formErrors: string[]
  signInUrl?: string
}

/** What a successful account action returns. @public */
export interface AccountActionSuccess {
  ok: true
}
