/**
 * Every refusal Latchkey makes is one of these classes. The `type` string is stable: it is the
 * `error=` parameter on error pages, the code in log lines, and what apps `switch` on. It never
 * changes between versions, and a message never carries a token, cookie value or secret.
 *
 * (The module behind `@latchkey/core/errors`.)
 */
import type { ResponseCookie } from "../types/cookies.js"
import type { LogCode } from "./warnings.js"

/** Where the user is sent when the error ends a request: the sign-in page or the error page. */
export type ErrorKind = "signIn" | "error"

/** Every `type` an {@link AuthError} can have. */
export type ErrorType =
  | "AuthError"
  | "AccessDenied"
  | "AccountItemNotFound"
  | "AccountNotLinked"
  | "AdapterError"
  | "CallbackRouteError"
  | "CredentialsSignin"
  | "DuplicateConditionalUI"
  | "EmailSignInError"
  | "ErrorPageLoop"
  | "EventError"
  | "ExperimentalFeatureNotEnabled"
  | "InvalidCallbackUrl"
  | "InvalidCheck"
  | "InvalidConfiguration"
  | "InvalidEndpoints"
  | "InvalidParameter"
  | "InvalidProvider"
  | "InvalidRequest"
  | "JWTSessionError"
  | "LastSignInMethod"
  | "MethodNotAllowed"
  | "MissingAdapter"
  | "MissingAdapterMethods"
  | "MissingAuthorize"
  | "MissingCSRF"
  | "MissingSecret"
  | "MissingWebAuthnAutocomplete"
  | "NotSupportedByAdapter"
  | "OAuthAccountNotLinked"
  | "OAuthCallbackError"
  | "OAuthProfileParseError"
  | "OAuthSessionMismatch"
  | "OAuthSignInError"
  | "PasswordRejected"
  | "ProviderTokensTooLarge"
  | "RateLimited"
  | "ReauthenticationRequired"
  | "RefreshTokenError"
  | "SessionRequired"
  | "SessionTokenError"
  | "SignOutError"
  | "StoreError"
  | "StoreTimeout"
  | "StoreFull"
  | "TokenEndpointError"
  | "TokenEndpointTimeout"
  | "UnknownAction"
  | "UnsupportedStrategy"
  | "UntrustedHost"
  | "Verification"
  | "WebAuthnVerificationError"
  | "InvalidTwoFactorCode"
  | "TwoFactorSignInExpired"
  | "TwoFactorStateError"
  | "OrganizationError"

/** Extra facts about an error, kept for logs. Never put a token, cookie value or secret here. */
export interface ErrorDetails {
  [key: string]: unknown
}

/** Marks every Latchkey error, whichever copy of this module made it (`Symbol.for`). */
const AUTH_ERROR = Symbol.for("latchkey.auth-error")

/** What names a class across copies of this module: its own `brand`, else its own `type`. */
function classKey(ctor: unknown): string | undefined {
  if (typeof ctor !== "function") return undefined
  if (Object.hasOwn(ctor, "brand")) return (ctor as unknown as { brand: string }).brand
  return Object.hasOwn(ctor, "type") ? (ctor as unknown as { type: string }).type : undefined
}

/** Base class of every Latchkey error. `instanceof AuthError` catches them all. */
export class AuthError extends Error {
  /**
   * `instanceof` also knows the errors of another copy of this module. An app that bundles the
   * core while an adapter package is loaded from `node_modules` runs two copies, and the adapter
   * feature's refusals (`OAuthAccountNotLinked`…) come from the adapter's: they are still this
   * class's instances when the same class (by `type`, or `brand` for the classes without one
   * of their own) is in their prototype chain.
   */
  static override [Symbol.hasInstance](value: unknown): boolean {
    // `this` is the class on the right of `instanceof` (a subclass inherits this method).
    // biome-ignore lint/complexity/noThisInStatic: the subclass asked about, not AuthError
    const asked = this
    if (Function.prototype[Symbol.hasInstance].call(asked, value)) return true
    if (typeof value !== "object" || value === null || !(AUTH_ERROR in value)) return false
    const wanted = classKey(asked)
    if (wanted === undefined) return false
    for (let proto = Object.getPrototypeOf(value); proto; proto = Object.getPrototypeOf(proto)) {
      if (classKey(proto.constructor) === wanted) return true
    }
    return false
  }

  /** The stable identifier of this failure. Subclasses override it. */
  static type: ErrorType = "AuthError"
  /** Which page a request ending in this error is sent to. */
  static kind: ErrorKind = "error"
  /**
   * Whether the `type` may be shown to the user (`?error=`, JSON `type`) with a fixed message
   * of its own. A class for a failure the user caused and can recover from by trying again
   * sets it; every other error is shown as `Configuration`.
   */
  static clientSafe = false
  /**
   * Set for refusals, not faults: the request logs one line under this code (naming what
   * failed) instead of an `error`: a warning for a failed attempt, `debug` for a user event.
   */
  static warning: LogCode | undefined = undefined

  readonly type: ErrorType
  readonly kind: ErrorKind
  readonly clientSafe: boolean
  readonly warning: LogCode | undefined
  /** Log-only facts (provider id, adapter method, …): never shown to the client. */
  readonly details: ErrorDetails | undefined

  constructor(message?: string, options?: { cause?: unknown; details?: ErrorDetails }) {
    super(message ?? "", options?.cause === undefined ? undefined : { cause: options.cause })
    const ctor = new.target as typeof AuthError
    this.type = ctor.type
    this.kind = ctor.kind
    this.clientSafe = ctor.clientSafe
    this.warning = ctor.warning
    this.name = ctor.type
    this.details = options?.details
    if (!message) this.message = `${this.type} error`
  }
}

Object.defineProperty(AuthError.prototype, AUTH_ERROR, { value: true })

/** Errors that send the user back to the sign-in page rather than the error page. */
export class SignInError extends AuthError {
  static brand = "SignInError"
  static override kind: ErrorKind = "signIn"
}

/** The `signIn` callback refused the user (returned `false` or threw). */
export class AccessDenied extends AuthError {
  static override type: ErrorType = "AccessDenied"
}

/** A WebAuthn credential belongs to another user, or its email is taken. */
export class AccountNotLinked extends SignInError {
  static override type: ErrorType = "AccountNotLinked"
}

/** An adapter method failed (database down, constraint broken, timeout). */
export class AdapterError extends AuthError {
  static override type: ErrorType = "AdapterError"
}

/** Something unexpected failed inside a callback route; the cause is logged. */
export class CallbackRouteError extends AuthError {
  static override type: ErrorType = "CallbackRouteError"
}

/**
 * `authorize` returned `null`, or the app threw this to refuse a sign-in. Set `code` in a
 * subclass to tell the sign-in page why (`?error=CredentialsSignin&code=<code>`).
 */
export class CredentialsSignin extends SignInError {
  static override type: ErrorType = "CredentialsSignin"
  static override warning: LogCode | undefined = "credentials-refused"
  /** Shown to the client as `code=`: keep it a short identifier, never a secret. */
  code = "credentials"
}

/**
 * The password and address were right but the address is not proven yet, and the `Password`
 * provider requires it (`requireEmailVerification`, the default). Only someone who knows the
 * password gets this answer (a wrong password gets the plain `CredentialsSignin`), so it tells
 * nothing about who has an account; the sign-in page offers to send the link again
 * (`?error=CredentialsSignin&code=email-unverified`).
 */
export class EmailUnverified extends CredentialsSignin {
  static override brand = "EmailUnverified"
  override code = "email-unverified"
}

/** More than one WebAuthn provider asks for conditional UI. */
export class DuplicateConditionalUI extends AuthError {
  static override type: ErrorType = "DuplicateConditionalUI"
}

/** The email address was refused or the sign-in mail could not be sent. */
export class EmailSignInError extends SignInError {
  static override type: ErrorType = "EmailSignInError"
}

/** A custom error page redirected back to itself. */
export class ErrorPageLoop extends AuthError {
  static override type: ErrorType = "ErrorPageLoop"
}

/** An `events.*` handler threw; the error is logged and the flow goes on. */
export class EventError extends AuthError {
  static override type: ErrorType = "EventError"
}

/** An experimental feature is used without `experimental.<flag>: true`. */
export class ExperimentalFeatureNotEnabled extends AuthError {
  static override type: ErrorType = "ExperimentalFeatureNotEnabled"
}

/** A callback URL is neither a relative path nor an absolute http(s) URL. */
export class InvalidCallbackUrl extends AuthError {
  static override type: ErrorType = "InvalidCallbackUrl"
}

/**
 * A state, PKCE, nonce or challenge check failed (missing, expired, replayed or forged):
 * the user idled past the check cookie's lifetime, came back in another browser, or pressed
 * Back and resubmitted. Nothing the server can fix, and the user can simply start again, so
 * it is a sign-in page message and a `check-failed` warning, never a 500 error page.
 * `details.check` names the check, `details.reason` what was wrong with it.
 */
export class InvalidCheck extends SignInError {
  static override type: ErrorType = "InvalidCheck"
  static override clientSafe = true
  static override warning: LogCode | undefined = "check-failed"
}

/**
 * The configuration has one or more problems. `problems` lists every one of them, so a single
 * start-up tells the whole story.
 */
export class InvalidConfiguration extends AuthError {
  static override type: ErrorType = "InvalidConfiguration"
  readonly problems: readonly AuthError[]

  constructor(problems: readonly AuthError[]) {
    super(
      `Latchkey configuration has ${problems.length} problem(s):\n${problems
        .map((p) => `  - [${p.type}] ${p.message}`)
        .join("\n")}`,
    )
    this.problems = problems
  }
}

/** An OAuth provider has neither an issuer to discover nor the endpoint URLs it needs. */
export class InvalidEndpoints extends AuthError {
  static override type: ErrorType = "InvalidEndpoints"
}

/** A function was called with a parameter of the wrong type or value. `parameter` names it. */
export class InvalidParameter extends AuthError {
  static override type: ErrorType = "InvalidParameter"
  readonly parameter: string

  constructor(parameter: string, message: string) {
    super(`"${parameter}" ${message}`)
    this.parameter = parameter
  }
}

/** The provider id in the URL is unknown, or that provider cannot serve this action. */
export class InvalidProvider extends AuthError {
  static override type: ErrorType = "InvalidProvider"
}

/** The request could not be parsed (bad JSON, bad form encoding, oversized body, …). */
export class InvalidRequest extends AuthError {
  static override type: ErrorType = "InvalidRequest"
}

/** A JWT session could not be read or written. */
export class JWTSessionError extends AuthError {
  static override type: ErrorType = "JWTSessionError"
}

/** The action exists but not for this HTTP method. */
export class MethodNotAllowed extends AuthError {
  static override type: ErrorType = "MethodNotAllowed"
}

/** A feature that needs a database adapter is configured without one. */
export class MissingAdapter extends AuthError {
  static override type: ErrorType = "MissingAdapter"
}

/** The adapter lacks methods the configured features call. */
export class MissingAdapterMethods extends AuthError {
  static override type: ErrorType = "MissingAdapterMethods"
}

/** A credentials provider has no `authorize` function. */
export class MissingAuthorize extends AuthError {
  static override type: ErrorType = "MissingAuthorize"
}

/** A state-changing request came without proof that it was sent by this site. */
export class MissingCSRF extends SignInError {
  static override type: ErrorType = "MissingCSRF"
}

/** No secret is configured (set `AUTH_SECRET`, or `secret` in the config). */
export class MissingSecret extends AuthError {
  static override type: ErrorType = "MissingSecret"
}

/** A WebAuthn provider with conditional UI has no form field with `autocomplete="… webauthn"`. */
export class MissingWebAuthnAutocomplete extends AuthError {
  static override type: ErrorType = "MissingWebAuthnAutocomplete"
}

/** The OAuth account's email belongs to a user who has not linked this provider. */
export class OAuthAccountNotLinked extends SignInError {
  static override type: ErrorType = "OAuthAccountNotLinked"
}

/** The provider answered the callback with an error, or the callback could not be validated. */
export class OAuthCallbackError extends SignInError {
  static override type: ErrorType = "OAuthCallbackError"
}

/**
 * An OAuth/OIDC callback arrived in another browser session than the one that started the
 * flow (its check cookies were made for another session, or none): refused, nothing linked.
 * Either someone planted their flow's cookies in this browser (account-linking CSRF), or the
 * user signed in or out while at the provider; starting again fixes the latter.
 */
export class OAuthSessionMismatch extends SignInError {
  static override type: ErrorType = "OAuthSessionMismatch"
}

/** The provider's `profile()` threw or returned something unusable. */
export class OAuthProfileParseError extends AuthError {
  static override type: ErrorType = "OAuthProfileParseError"
}

/** The authorization request could not be built (discovery failed, bad endpoint, …). */
export class OAuthSignInError extends SignInError {
  static override type: ErrorType = "OAuthSignInError"
}

/**
 * Without an adapter, provider tokens live in the session cookie, and these would make it larger
 * than its budget (`details.bytes`, `details.budget`). Use an adapter, or keep fewer tokens.
 */
export class ProviderTokensTooLarge extends AuthError {
  static override type: ErrorType = "ProviderTokensTooLarge"
}

/** Too many attempts from one address or for one account; try again later. */
export class RateLimited extends AuthError {
  static override type: ErrorType = "RateLimited"
}

/**
 * The provider refused to refresh the access token (`invalid_grant`: revoked or expired refresh
 * token), or there is no refresh token to try. The user must sign in with the provider again;
 * the session carries `error: "RefreshTokenError"` until then. Not retried.
 */
export class RefreshTokenError extends AuthError {
  static override type: ErrorType = "RefreshTokenError"
  /**
   * Cookies to set on the response even though the call failed: the re-issued session cookie
   * that records the refusal (JWT sessions), so the next request neither asks the provider again
   * nor hides the error from `useSession`.
   */
  cookies: ResponseCookie[] = []
}

/** A database session could not be read. */
export class SessionTokenError extends AuthError {
  static override type: ErrorType = "SessionTokenError"
}

/** Sign-out could not complete every step (the session cookie is cleared anyway). */
export class SignOutError extends AuthError {
  static override type: ErrorType = "SignOutError"
}

/**
 * The shared store (`config.store`, e.g. Redis) could not carry out a command: connection
 * refused or lost, or a server error. Callers fail closed unless configured otherwise.
 */
export class StoreError extends AuthError {
  static override type: ErrorType = "StoreError"
  /** Shown as "temporarily unavailable" (503, `Retry-After`): the user can retry shortly. */
  static override clientSafe = true
}

/** A store command got no answer within its timeout (the server is down, slow or unreachable). */
export class StoreTimeout extends StoreError {
  static override type: ErrorType = "StoreTimeout"
}

/**
 * The store has no room for security state (single-use markers, per-user counters, values)
 * without evicting some that has not expired, which would let a used code or link work again:
 * the new write is refused instead (fail closed). Raise the memory store's `maxProtectedKeys`,
 * or use a shared store with room to spare.
 */
export class StoreFull extends StoreError {
  static override type: ErrorType = "StoreFull"
}

/**
 * The provider's token endpoint could not be used to refresh a token: network failure, a 5xx,
 * or a response that is not a valid token response. Transient: the stored tokens are kept.
 */
export class TokenEndpointError extends AuthError {
  static override type: ErrorType = "TokenEndpointError"
}

/** The token endpoint did not answer within the refresh timeout (`details.timeoutMs`). */
export class TokenEndpointTimeout extends TokenEndpointError {
  static override type: ErrorType = "TokenEndpointTimeout"
}

/** The URL names no auth action. */
export class UnknownAction extends AuthError {
  static override type: ErrorType = "UnknownAction"
}

/** The session strategy cannot work with the configured providers. */
export class UnsupportedStrategy extends AuthError {
  static override type: ErrorType = "UnsupportedStrategy"
}

/** The request's host is not trusted: set `trustHost`, `AUTH_TRUST_HOST=true` or `AUTH_URL`. */
export class UntrustedHost extends AuthError {
  static override type: ErrorType = "UntrustedHost"
}

/** An email sign-in link is invalid, expired or already used. */
export class Verification extends AuthError {
  static override type: ErrorType = "Verification"
}

/** A WebAuthn registration or authentication response did not verify. */
export class WebAuthnVerificationError extends AuthError {
  static override type: ErrorType = "WebAuthnVerificationError"
}

/**
 * Two-factor sign-in: the code (or recovery code) is wrong or was already used in its time step
 * (`details.reason` says which; the message never carries the code). The user types a new code.
 */
export class InvalidTwoFactorCode extends SignInError {
  static override type: ErrorType = "InvalidTwoFactorCode"
  static override clientSafe = true
  static override warning: LogCode | undefined = "two-factor-refused"
}

/**
 * Two-factor sign-in: the step between the password (or other first factor) and the code is
 * over: it expired (`twoFactor.pendingMaxAge`), was never started, or was already completed
 * (`details.reason`: `pending-missing`, `pending-replayed`). Nothing was wrong with a code: the
 * user signs in again, and the sign-in page says so.
 */
export class TwoFactorSignInExpired extends SignInError {
  static override type: ErrorType = "TwoFactorSignInExpired"
  static override clientSafe = true
  static override warning: LogCode | undefined = "check-failed"
}

/**
 * A two-factor operation that does not fit the user's state: enabling when it is on, confirming
 * with no enrollment started, disabling or regenerating when it is off (409).
 */
export class TwoFactorStateError extends AuthError {
  static override type: ErrorType = "TwoFactorStateError"
  static override clientSafe = true
  readonly status = 409
}

/**
 * The request needs a recent sign-in: the session's `auth_time` is older than
 * `session.recentAuthMaxAge`, unknown (a session issued by Auth.js), or the sign-in lacked a
 * required factor (`details.reason`: `"stale" | "missing-factor" | "unknown"`). Sign in again:
 * a page flow (linking a provider account) lands on the sign-in page with `reauth=1`.
 */
export class ReauthenticationRequired extends AuthError {
  static override type: ErrorType = "ReauthenticationRequired"
  static override kind: ErrorKind = "signIn"
  static override clientSafe = true
  static override warning: LogCode | undefined = "reauthentication-required"
  /** HTTP status of the account API's answer. */
  readonly status = 403
}

/** The request needs a signed-in user and has no (valid) session. */
export class SessionRequired extends AuthError {
  static override type: ErrorType = "SessionRequired"
  static override clientSafe = true
  readonly status = 401
}

/**
 * The passkey, session or linked account named is not one of the signed-in user's. Also the
 * answer for another user's id: whether it exists elsewhere is never revealed.
 */
export class AccountItemNotFound extends AuthError {
  static override type: ErrorType = "AccountItemNotFound"
  static override clientSafe = true
  readonly status = 404
}

/** The change would remove the user's last way to sign in (`details.remaining` counts them). */
export class LastSignInMethod extends AuthError {
  static override type: ErrorType = "LastSignInMethod"
  static override clientSafe = true
  readonly status = 409
}

/**
 * The configured adapter lacks an optional method this feature needs (`details.method` names
 * it; the configuration check names it too, once, at start-up).
 */
export class NotSupportedByAdapter extends AuthError {
  static override type: ErrorType = "NotSupportedByAdapter"
  static override clientSafe = true
  readonly status = 501
}

/**
 * A new password was refused by the policy (`details.reason`: `"missing" | "too-short" |
 * "too-long" | "email" | "common" | "breached"`, `"email"` being the account's own address or
 * its local part); the message says what to choose instead (400).
 */
export class PasswordRejected extends AuthError {
  static override type: ErrorType = "PasswordRejected"
  static override clientSafe = true
  readonly status = 400
}

/**
 * An organization operation refused (`code`: `not-found`, `forbidden`, `slug-taken`,
 * `limit-reached`, `last-owner`, `role-above-yours`, `invitation-invalid`,
 * `invitation-other-address`, `address-unproven`, `invalid-input`, …). The message is composed
 * by the feature from fixed text and says what to do; another organization's ids are
 * `not-found`, whether they exist elsewhere is never revealed.
 */
export class OrganizationError extends AuthError {
  static override type: ErrorType = "OrganizationError"
  static override clientSafe = true
  /** HTTP status of the answer (400, 403, 404, 409, …). */
  readonly status: number
  /** The stable reason, for the app's `switch` and the JSON body. */
  readonly code: string
  constructor(code: string, status: number, message: string) {
    super(message, { details: { code } })
    this.code = code
    this.status = status
  }
}

/** Error types that may be shown to the client as `?error=`; every other one becomes `Configuration`. */
const clientSafeTypes = new Set<ErrorType>([
  "AccessDenied",
  "AccountNotLinked",
  "CredentialsSignin",
  "EmailSignInError",
  "MissingCSRF",
  "OAuthAccountNotLinked",
  "OAuthCallbackError",
  "OAuthSessionMismatch",
  "OAuthSignInError",
  "RateLimited",
  "Verification",
  "WebAuthnVerificationError",
])

/** Whether an error's `type` may be shown to the user (as `?error=` on a page). */
export function isClientError(error: unknown): error is AuthError {
  return error instanceof AuthError && (error.clientSafe || clientSafeTypes.has(error.type))
}
