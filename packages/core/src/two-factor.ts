/**
 * Two-factor sign-in (TOTP and recovery codes): `twoFactor: TwoFactor({ issuer: "My app" })` in
 * the configuration brings the feature, so an app without it carries none of its code.
 *
 * ```ts
 * import { TwoFactor } from "@latchkey/core/two-factor"
 *
 * Auth(request, { providers, adapter, twoFactor: TwoFactor({ issuer: "My app", required: true }) })
 * ```
 *
 * @module @latchkey/core/two-factor
 */
import { accountApiFeature } from "./features/account-api/index.js"
import { twoFactorFeature } from "./features/two-factor/index.js"
import type { TwoFactorConfig, TwoFactorOptions } from "./features/two-factor/types.js"
import { withFeature } from "./kernel/feature/feature.js"

export type {
  TwoFactorConfig,
  TwoFactorEnrollment,
  TwoFactorEvent,
  TwoFactorOptions,
  TwoFactorPolicyUser,
  TwoFactorRateLimitRule,
  TwoFactorStatus,
} from "./features/two-factor/types.js"

/** The `twoFactor` option, with the feature that serves it. */
export function TwoFactor(options: TwoFactorOptions): TwoFactorConfig {
  // Turning it on or off is an account change: the account API comes with it.
  return withFeature(options, twoFactorFeature, accountApiFeature)
}
