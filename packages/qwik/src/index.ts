/**
 * `@latchkey/qwik`: Latchkey for Qwik City, a drop-in successor to `@auth/qwik`.
 *
 * The session is available to every request handler as `event.sharedMap.get("@latchkey/session")`
 * and, for code written for `@auth/qwik`, as `event.sharedMap.get("session")`.
 *
 * This entry is part of an app's client build: nothing it imports at module level may need the
 * server (see `qwik-auth.ts`). The server half is `./server.js`, loaded on demand.
 *
 * @module @latchkey/qwik
 */

export type { Account, DefaultSession, Profile, Session, User } from "@latchkey/core"
export * from "@latchkey/core/errors"
export { getAccessToken } from "./access-token.js"
export type {
  AccountActionFailure,
  AccountActionSuccess,
  AccountData,
  AccountErrorType,
  AccountPasskey,
  AccountSession,
  LinkedAccount,
} from "./account-types.js"
export type { QwikAuthConfigFn } from "./config.js"
export {
  createDevMailbox,
  type DevMail,
  type DevMailbox,
  type DevMailStore,
  devMailbox,
  devMailboxGuard,
  isLoopback,
  memoryMailStore,
  type NewDevMail,
} from "./dev-mailbox.js"
export { setEnvDefaults } from "./env.js"
export { organizationActions } from "./organizations.js"
export {
  type GuardedOrganization,
  hasOrganizationPermission,
  requireOrganizationPermission,
} from "./organizations-guard.js"
export type {
  OrganizationActionFailure,
  OrganizationOp,
  OrganizationSummary,
  OrganizationsData,
} from "./organizations-server.js"
export {
  type PasskeyFailure,
  type PasskeyOptions,
  registerPasskey,
  signInWithPasskey,
} from "./passkey/client.js"
export type {
  PasswordActionFailure,
  PasswordActionSuccess,
  PasswordErrorType,
} from "./password.js"
export { QwikAuth$, QwikAuthQrl, routeAuth$, routeAuthQrl } from "./qwik-auth.js"
export {
  type RecentSignIn,
  type RequireRecentAuthOptions,
  requireRecentAuth,
} from "./recent-auth.js"
export { getSessionData } from "./session-data.js"
export { LEGACY_SESSION_KEY, SESSION_KEY } from "./shared-map.js"
export { twoFactorActions } from "./two-factor.js"
export type { TwoFactorActionFailure, TwoFactorErrorType } from "./two-factor-server.js"
export type { GetSessionResult, QwikAuthConfig, ResponseCookie, SessionOf } from "./types.js"
