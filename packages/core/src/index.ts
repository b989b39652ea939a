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

export type { DeviceSession } from "./features/account-api/device-sessions.js"
export type { AccountOp } from "./features/account-api/operations.js"
export type { AccountView, LinkedAccountView, PasskeyView } from "./features/account-api/view.js"
export type { RefreshOptions } from "./features/oauth/client/provider-config.js"
export {
  type AccessTokenResult,
  getAccessToken,
} from "./features/oauth/refresh/get-access-token.js"
export type {
  AdapterTwoFactor,
  TwoFactorEnrollment,
  TwoFactorEvent,
  TwoFactorOptions,
  TwoFactorPolicyUser,
  TwoFactorRateLimitRule,
  TwoFactorStatus,
} from "./features/two-factor/types.js"
export type { AccountUser } from "./kernel/account/current-session.js"
export {
  type RecentAuthFacts,
  type RecentAuthPolicy,
  type RecentAuthVerdict,
  recentAuthVerdict,
} from "./kernel/account/recent-auth.js"
export { type RecentAuthSession, requireRecentAuth } from "./kernel/account/require-recent-auth.js"
export type { EmailLinkMethod } from "./kernel/account/sign-in-methods.js"
export { setEnvDefaults } from "./kernel/config/env.js"
export { skipCSRFCheck } from "./kernel/csrf/skip.js"
export { AuthError, CredentialsSignin } from "./kernel/errors/errors.js"
export { revokeUserSessions } from "./kernel/grants/end-sessions.js"
export { type AuthAction, isAuthAction } from "./kernel/http/actions.js"
export { type AuthRequestOptions, flushDeferred } from "./kernel/http/deferred.js"
export type { AccountOptions } from "./kernel/types/account-options.js"
export type {
  Adapter,
  AdapterAccount,
  AdapterSession,
  AdapterSessionRecord,
  AdapterUser,
} from "./kernel/types/adapters.js"

import { Auth as kernelAuth } from "./kernel/auth.js"
import type { AuthRequestOptions } from "./kernel/http/deferred.js"
import type { AuthConfig } from "./types.js"

export { setConnectionIp } from "./kernel/rate-limit/client-ip.js"
export { listUserSessions, revokeSession } from "./kernel/revocation/api.js"
export type { SessionRecord } from "./kernel/revocation/backend.js"
export { getSession } from "./kernel/session/get-session.js"
export type { JWT } from "./kernel/token/jwt.js"
export { redirectLocation } from "./kernel/urls/redirect.js"
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
export type * from "./types.js"

/**
 * Answers one auth request. `options.waitUntil` is the platform's way to keep work alive after
 * the response (Cloudflare's `ctx.waitUntil`): mail whose due depends on an account is sent then.
 * Providers are made by their factories (each brings its code); an Auth.js-style config with
 * plain provider objects goes through `withPlainProviders` (`@latchkey/core/plain-providers`).
 */
export const Auth: (
  request: Request,
  config: AuthConfig,
  options?: AuthRequestOptions,
) => Promise<Response> = kernelAuth
