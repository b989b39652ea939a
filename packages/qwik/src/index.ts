/**
 * `@latchkey/qwik`: Latchkey for Qwik City, a drop-in successor to `@auth/qwik`.
 *
 * The session is available to every request handler as `event.sharedMap.get("@latchkey/session")`
 * and, for code written for `@auth/qwik`, as `event.sharedMap.get("session")`.
 *
 * @module @latchkey/qwik
 */

export type { Account, DefaultSession, Profile, Session, User } from "@latchkey/core"
export type { ErrorKind, ErrorType } from "@latchkey/core/errors"
export {
  AccessDenied,
  AccountNotLinked,
  AdapterError,
  AuthError,
  CallbackRouteError,
  CredentialsSignin,
  DuplicateConditionalUI,
  EmailSignInError,
  ErrorPageLoop,
  EventError,
  ExperimentalFeatureNotEnabled,
  InvalidCallbackUrl,
  InvalidCheck,
  InvalidConfiguration,
  InvalidEndpoints,
  InvalidParameter,
  InvalidProvider,
  InvalidRequest,
  JWTSessionError,
  MethodNotAllowed,
  MissingAdapter,
  MissingAdapterMethods,
  MissingAuthorize,
  MissingCSRF,
  MissingSecret,
  MissingWebAuthnAutocomplete,
  OAuthAccountNotLinked,
  OAuthCallbackError,
  OAuthProfileParseError,
  OAuthSignInError,
  RateLimited,
  SessionTokenError,
  SignInError,
  SignOutError,
  UnknownAction,
  UnsupportedStrategy,
  UntrustedHost,
  Verification,
  WebAuthnVerificationError,
} from "@latchkey/core/errors"
export { getAccessToken } from "./access-token.js"
export type { QwikAuthConfigFn } from "./config.js"
export { setEnvDefaults } from "./env.js"
export { QwikAuth$, QwikAuthQrl } from "./qwik-auth.js"
export { getSessionData } from "./session.js"
export { LEGACY_SESSION_KEY, SESSION_KEY } from "./shared-map.js"
export type { GetSessionResult, QwikAuthConfig, ResponseCookie, SessionOf } from "./types.js"
