/**
 * Public types of the Latchkey configuration and of what sessions, users and accounts look like.
 * Names and shapes follow Auth.js v5 so that an `auth.ts` written for `@auth/core` type-checks
 * unchanged. Augment `Session`, `User` or `JWT` (in `@latchkey/core/jwt`) with module
 * augmentation to add fields.
 *
 * @module @latchkey/core
 */
import type { OrganizationsConfig } from "./features/organizations/types.js"
import type { TwoFactorConfig } from "./features/two-factor/types.js"
import type { AuthConfig as KernelAuthConfig } from "./kernel/config/auth-config.js"
import type { Provider } from "./providers/index.js"

export type {
  Account,
  Awaitable,
  CallbacksOptions,
  CookieOption,
  CookiesOptions,
  DefaultSession,
  EventCallbacks,
  LoggerInstance,
  PagesOptions,
  PartialCookiesOptions,
  Profile,
  ResponseCookie,
  Session,
  SessionOptions,
  SessionRevocationMode,
  SessionStrategy,
  Theme,
  User,
  WarningCode,
} from "./kernel/config/auth-config.js"

/**
 * The configuration of Latchkey, shaped like Auth.js v5's `AuthConfig`: the kernel's keys, the
 * providers of every kind, and the keys that turn features on.
 */
export interface AuthConfig extends KernelAuthConfig {
  providers: Provider[]
  /**
   * Latchkey: two-factor sign-in (TOTP and recovery codes): `TwoFactor({ … })` from
   * `@latchkey/core/two-factor`, which brings the feature (the Qwik bindings also take the plain
   * options). Needs an adapter with the two-factor methods. See `TwoFactorOptions`.
   */
  twoFactor?: TwoFactorConfig
  /**
   * Latchkey: organizations (members, roles, invitations): `Organizations({ … })` from
   * `@latchkey/core/organizations` (the Qwik bindings also take the plain options). Needs an
   * adapter with the organizations methods. See `OrganizationsOptions`.
   */
  organizations?: OrganizationsConfig
}
