/**
 * `@latchkey/core`: the framework-neutral auth handler, wire-compatible with Auth.js v5.
 *
 * ```ts
 * import { Auth } from "@latchkey/core"
 * import Credentials from "@latchkey/core/providers/credentials"
 *
 * const response = await Auth(request, { providers: [Credentials({ authorize })], secret, trustHost: true })
 * ```
 *
 * @module @latchkey/core
 */
export type {
  Adapter,
  AdapterAccount,
  AdapterSession,
  AdapterSessionRecord,
  AdapterUser,
} from "./adapters.js"
export { AuthError, CredentialsSignin } from "./errors.js"
export type { JWT } from "./jwt.js"
export type { AccountView, LinkedAccountView, PasskeyView } from "./lib/account/account-view.js"
export type { AccountUser } from "./lib/account/current-session.js"
export type { DeviceSession } from "./lib/account/device-sessions.js"
export type { AccountOp } from "./lib/account/operations.js"
export type { AccountOptions } from "./lib/account/options.js"
export {
  type RecentAuthFacts,
  type RecentAuthPolicy,
  type RecentAuthVerdict,
  recentAuthVerdict,
} from "./lib/account/recent-auth.js"
export { type RecentAuthSession, requireRecentAuth } from "./lib/account/require-recent-auth.js"
export { Auth } from "./lib/auth.js"
export { setEnvDefaults } from "./lib/config/env.js"
export { skipCSRFCheck } from "./lib/csrf/skip.js"
export { revokeUserSessions } from "./lib/grants/end-sessions.js"
export { type AuthAction, isAuthAction } from "./lib/http/actions.js"
export { type AuthRequestOptions, flushDeferred } from "./lib/http/deferred.js"
export { setConnectionIp } from "./lib/rate-limit/client-ip.js"
export { redirectLocation } from "./lib/redirect.js"
export {
  type AccessTokenResult,
  getAccessToken,
} from "./lib/refresh/get-access-token.js"
export { listUserSessions, revokeSession } from "./lib/revocation/api.js"
export type { SessionRecord } from "./lib/revocation/backend.js"
export { getSession } from "./lib/session/get-session.js"
export type {
  AdapterTwoFactor,
  TwoFactorEnrollment,
  TwoFactorEvent,
  TwoFactorOptions,
  TwoFactorPolicyUser,
  TwoFactorRateLimitRule,
  TwoFactorStatus,
} from "./lib/two-factor/types.js"
export type {
  CommonProviderOptions,
  CredentialInput,
  CredentialsConfig,
  EmailConfig,
  OAuthConfig,
  OIDCConfig,
  Provider,
  ProviderConfig,
  ProviderType,
  WebAuthnConfig,
} from "./providers/index.js"
export type { RefreshOptions } from "./providers/oauth.js"
export type * from "./types.js"
