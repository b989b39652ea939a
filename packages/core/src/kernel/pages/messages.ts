import type { ErrorType } from "../errors/errors.js"

/**
 * What a person reads for each `?error=` value. Messages are looked up, never built from the
 * query string, so a crafted `error` can only ever select one of these texts.
 */

/** Page codes that are not error classes: Auth.js's own, and the v4 names old links still use. */
type PageCode =
  | "Configuration"
  | "SessionRequired"
  | "Signin"
  | "OAuthSignin"
  | "OAuthCallback"
  | "OAuthCreateAccount"
  | "EmailCreateAccount"
  | "Callback"
  | "EmailSignin"

type MessageTable = Partial<Record<ErrorType | PageCode, string>>

const tryAnotherAccount = "Try signing in with a different account."
const sameAccount = "To confirm your identity, sign in with the same account you used originally."
const accessDenied = "You do not have permission to sign in."
const linkExpired =
  "The sign in link is no longer valid. It may have been used already or it may have expired."
/**
 * MissingCSRF: the form's security cookie was missing or did not match. Most often the site
 * was opened at another address than its configured one (127.0.0.1 with AUTH_URL on localhost):
 * the cookie was set for one host and the form posted from the other.
 */
const csrfMissing =
  "The sign-in form's security cookie was missing, so nothing was done. This usually means the site was opened at a different address than its usual one (for example 127.0.0.1 instead of localhost), or the form was old. Open the site at its usual address, reload the page and try again."
export const signInExpired = "Your sign-in expired. Sign in again."
const rateLimited = "Too many attempts. Wait a few minutes and try again."
/** InvalidCheck: the user did nothing wrong; the attempt is simply over. */
export const checkFailed =
  "This sign-in attempt expired or was already used (for example after a long wait, the Back button, or another browser). Please sign in again."
export const storeUnavailable =
  "Signing in is temporarily unavailable on our side. Nothing is wrong with your account: try again in a minute."
const passkeyRefused =
  "Your passkey could not be verified. Start again from the sign-in page; if it keeps failing, sign in another way."

/** The banner text used when `error` is set but not listed below. */
export const genericSignInMessage = "Unable to sign in."

const signInMessages: MessageTable = {
  // Deliberately the same text whatever failed, so the page never says which field was wrong.
  CredentialsSignin: "Sign in failed. Check the details you provided are correct.",
  OAuthAccountNotLinked: sameAccount,
  AccountNotLinked: sameAccount,
  OAuthCallbackError: tryAnotherAccount,
  OAuthSessionMismatch:
    "This sign-in was started in another browser session, or you signed in or out meanwhile. Start it again from this page.",
  OAuthSignInError: tryAnotherAccount,
  Signin: tryAnotherAccount,
  OAuthSignin: tryAnotherAccount,
  OAuthCallback: tryAnotherAccount,
  OAuthCreateAccount: tryAnotherAccount,
  EmailCreateAccount: tryAnotherAccount,
  Callback: tryAnotherAccount,
  EmailSignInError: "The e-mail could not be sent.",
  EmailSignin: "The e-mail could not be sent.",
  MissingCSRF: csrfMissing,
  SessionRequired: "Please sign in to access this page.",
  AccessDenied: accessDenied,
  Verification: linkExpired,
  RateLimited: rateLimited,
  WebAuthnVerificationError: passkeyRefused,
  InvalidCheck: checkFailed,
  StoreError: storeUnavailable,
  StoreTimeout: storeUnavailable,
  StoreFull: storeUnavailable,
  InvalidTwoFactorCode: "The second-factor code was not accepted. Sign in again.",
  TwoFactorSignInExpired: signInExpired,
  ReauthenticationRequired:
    "For your security, sign in again (with your second factor, if it is on), then add the passkey or account again.",
}

/** The sign-in banner text for `error`: a listed message, or the generic one. */
export function signInErrorMessage(error: string): string {
  return lookup(signInMessages, error) ?? genericSignInMessage
}

export interface ErrorPageContent {
  status: number
  heading: string
  message: string
  /** Whether the page offers "Sign in" (the user can retry) rather than "Go home". */
  signInLink: boolean
  /** The code shown for support; only listed types, so the query string is never echoed. */
  code?: string
}

const errorPages: Partial<Record<ErrorType | PageCode, ErrorPageContent>> = {
  Configuration: {
    status: 500,
    heading: "Server error",
    message:
      "There is a problem with the server configuration. Check the server logs for more information.",
    signInLink: false,
  },
  AccessDenied: { status: 403, heading: "Access denied", message: accessDenied, signInLink: true },
  Verification: {
    status: 403,
    heading: "Unable to sign in",
    message: linkExpired,
    signInLink: true,
  },
  MissingCSRF: {
    status: 403,
    heading: "Security check failed",
    message: csrfMissing,
    signInLink: true,
  },
  RateLimited: {
    status: 429,
    heading: "Too many attempts",
    message: rateLimited,
    signInLink: false,
  },
  StoreError: {
    status: 503,
    heading: "Temporarily unavailable",
    message: storeUnavailable,
    signInLink: true,
  },
  StoreTimeout: {
    status: 503,
    heading: "Temporarily unavailable",
    message: storeUnavailable,
    signInLink: true,
  },
  StoreFull: {
    status: 503,
    heading: "Temporarily unavailable",
    message: storeUnavailable,
    signInLink: true,
  },
  InvalidCheck: { status: 400, heading: "Sign-in expired", message: checkFailed, signInLink: true },
  WebAuthnVerificationError: {
    status: 400,
    heading: "Passkey not accepted",
    message: passkeyRefused,
    signInLink: true,
  },
  UnknownAction: {
    status: 400,
    heading: "Bad request",
    message: "This address is not part of the sign-in service.",
    signInLink: false,
  },
  InvalidProvider: {
    status: 500,
    heading: "Sign-in method unavailable",
    message:
      "This way of signing in is not set up on the server yet. Try another one; the server log says what is missing.",
    signInLink: true,
  },
  InvalidRequest: {
    status: 400,
    heading: "Bad request",
    message: "The request could not be understood. Go back and try again.",
    signInLink: false,
  },
}

const genericErrorPage: ErrorPageContent = {
  status: 400,
  heading: "Error",
  message: "Something went wrong. Go back to the site and try again.",
  signInLink: false,
}

/** Status, texts and links of the error page for `error`. */
export function errorPageContent(error: string | undefined): ErrorPageContent {
  const known = error === undefined ? undefined : lookup(errorPages, error)
  return known === undefined ? genericErrorPage : { ...known, code: error }
}

// `Object.hasOwn` so that `?error=constructor` or `__proto__` cannot reach Object.prototype.
function lookup<T>(table: Partial<Record<string, T>>, key: string): T | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined
}
