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
  return withFeature(options, twoFactorFeature)
}
