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
export type { DeviceSession } from "./features/account/device-sessions.js"
export type { AccountOp } from "./features/account/operations.js"
export type { AccountView, LinkedAccountView, PasskeyView } from "./features/account/view.js"
export {
  type AccessTokenResult,
  getAccessToken,
} from "./features/refresh/get-access-token.js"
export type {
  AdapterTwoFactor,
  TwoFactorEnrollment,
  TwoFactorEvent,
  TwoFactorOptions,
  TwoFactorPolicyUser,
  TwoFactorRateLimitRule,
  TwoFactorStatus,
} from "./features/two-factor/types.js"
export type { JWT } from "./jwt.js"
export type { AccountUser } from "./kernel/account/current-session.js"
export type { AccountOptions } from "./kernel/account/options.js"
export {
  type RecentAuthFacts,
  type RecentAuthPolicy,
  type RecentAuthVerdict,
  recentAuthVerdict,
} from "./kernel/account/recent-auth.js"
export { type RecentAuthSession, requireRecentAuth } from "./kernel/account/require-recent-auth.js"
export { Auth } from "./kernel/auth.js"
export { setEnvDefaults } from "./kernel/config/env.js"
export { skipCSRFCheck } from "./kernel/csrf/skip.js"
export { revokeUserSessions } from "./kernel/grants/end-sessions.js"
export { type AuthAction, isAuthAction } from "./kernel/http/actions.js"
export { type AuthRequestOptions, flushDeferred } from "./kernel/http/deferred.js"
export { setConnectionIp } from "./kernel/rate-limit/client-ip.js"
export { redirectLocation } from "./kernel/redirect.js"
export { listUserSessions, revokeSession } from "./kernel/revocation/api.js"
export type { SessionRecord } from "./kernel/revocation/backend.js"
export { getSession } from "./kernel/session/get-session.js"
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
