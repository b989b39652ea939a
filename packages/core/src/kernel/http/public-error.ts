/**
 * What the client may learn about an error: a type and a message a person can act on. Only
 * messages written by the request-handling layer itself are passed through; anything else
 * (callback, adapter or provider errors, which may quote secrets) gets a fixed text.
 */
import { AuthError, CredentialsSignin, isClientError } from "../errors/errors.js"

/** Types whose messages are composed by this layer from fixed text and never carry secrets. */
const OWN_MESSAGE_TYPES = new Set([
  "InvalidRequest",
  "UnknownAction",
  "MethodNotAllowed",
  "UntrustedHost",
  "InvalidProvider",
  // Composed by the password policy from fixed text and its configured numbers.
  "PasswordRejected",
  // Composed by the organizations feature from fixed text (never an id or an address).
  "OrganizationError",
])

const FIXED_MESSAGES: Record<string, string> = {
  MissingCSRF:
    "This request could not be verified as coming from this site. Reload the page and try again; custom forms must post the csrfToken from GET /csrf.",
  CredentialsSignin: "Sign-in failed. Check the details you entered and try again.",
  OAuthSessionMismatch:
    "This sign-in was started in another browser session, or you signed in or out meanwhile. Start it again.",
  AccessDenied: "You do not have permission to sign in.",
  WebAuthnVerificationError:
    "Your passkey could not be verified. Request new options and try again; if it keeps failing, sign in another way.",
  Verification: "The sign-in link is no longer valid: it may have been used or have expired.",
  PasswordRejected: "Choose another password.",
  InvalidCheck:
    "This sign-in attempt expired or was already used. Start again from the sign-in page.",
  StoreError: "Sign-in is temporarily unavailable. Try again after the Retry-After delay.",
  StoreTimeout: "Sign-in is temporarily unavailable. Try again after the Retry-After delay.",
  StoreFull: "Sign-in is temporarily unavailable. Try again after the Retry-After delay.",
  RateLimited: "Too many attempts. Try again after the Retry-After delay.",
  SessionRequired: "Sign in to continue.",
  ReauthenticationRequired:
    "This change needs a recent sign-in. Sign in again, then repeat it within a few minutes.",
  AccountItemNotFound: "That item is not part of your account (it may already be gone).",
  LastSignInMethod:
    "This is the last way to sign in to your account. Add another one before removing it.",
  Configuration:
    "The server could not complete this request because of a problem in its auth configuration. The server log names it.",
}

export interface PublicError {
  /** `error=` value / JSON `type`: the error's type if it may reach the client, else `Configuration`. */
  type: string
  message: string
  /** `code=` of `CredentialsSignin`. */
  code: string | undefined
}

export function publicError(error: unknown): PublicError {
  if (error instanceof AuthError && OWN_MESSAGE_TYPES.has(error.type)) {
    return { type: error.type, message: error.message, code: undefined }
  }
  if (isClientError(error)) {
    return {
      type: error.type,
      message: FIXED_MESSAGES[error.type] ?? `Sign-in could not be completed (${error.type}).`,
      code: error instanceof CredentialsSignin ? error.code : undefined,
    }
  }
  return { type: "Configuration", message: FIXED_MESSAGES.Configuration!, code: undefined }
}

export function errorBody(error: unknown): {
  error: { type: string; message: string; code?: string }
} {
  const { type, message, code } = publicError(error)
  return { error: code === undefined ? { type, message } : { type, message, code } }
}
