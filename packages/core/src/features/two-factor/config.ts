/** The `twoFactor` option, resolved and checked once per config. */

import { type ResolvedConfig, settingsOf } from "../../kernel/config/resolve.js"
import { type AuthError, InvalidParameter } from "../../kernel/errors/errors.js"
import type { TwoFactorOptions, TwoFactorRateLimitRule } from "./types.js"

export const DEFAULT_TWO_FACTOR_RATE_LIMIT: Readonly<TwoFactorRateLimitRule> = Object.freeze({
  limit: 10,
  windowMs: 15 * 60 * 1000,
})
export const DEFAULT_PENDING_MAX_AGE = 5 * 60

export interface ResolvedTwoFactor {
  readonly issuer: string
  readonly required: NonNullable<TwoFactorOptions["required"]>
  readonly rateLimit: Readonly<TwoFactorRateLimitRule>
  readonly pendingMaxAge: number
  readonly onEvent: TwoFactorOptions["onEvent"]
}

/** The resolved `twoFactor` of `config`; `undefined` when two-factor sign-in is off. */
export function twoFactorSettings(
  config: Pick<ResolvedConfig, "settings">,
): ResolvedTwoFactor | undefined {
  return settingsOf<ResolvedTwoFactor>(config, "two-factor")
}

export function resolveTwoFactor(
  options: TwoFactorOptions | undefined,
): ResolvedTwoFactor | undefined {
  if (options === undefined || options === null) return undefined
  return Object.freeze({
    issuer: typeof options.issuer === "string" ? options.issuer : "",
    required: options.required ?? false,
    rateLimit: options.rateLimit ?? DEFAULT_TWO_FACTOR_RATE_LIMIT,
    pendingMaxAge: options.pendingMaxAge ?? DEFAULT_PENDING_MAX_AGE,
    onEvent: options.onEvent,
  })
}

/** The problems of the `twoFactor` options (none when it is unset). */
export function checkTwoFactor(options: TwoFactorOptions | undefined, problems: AuthError[]): void {
  if (options === undefined) return
  if (typeof options !== "object" || options === null) {
    problems.push(
      new InvalidParameter("twoFactor", 'must be an object such as { issuer: "My app" }'),
    )
    return
  }
  if (typeof options.issuer !== "string" || options.issuer.trim() === "") {
    problems.push(
      new InvalidParameter("twoFactor.issuer", "must name the app (shown in authenticator apps)"),
    )
  }
  const { required, rateLimit, pendingMaxAge } = options
  if (required !== undefined && typeof required !== "boolean" && typeof required !== "function") {
    problems.push(
      new InvalidParameter("twoFactor.required", "must be a boolean or a function of the user"),
    )
  }
  const positive = (n: unknown) => typeof n === "number" && Number.isFinite(n) && n > 0
  if (rateLimit !== undefined && !(positive(rateLimit?.limit) && positive(rateLimit?.windowMs))) {
    problems.push(
      new InvalidParameter(
        "twoFactor.rateLimit",
        "must be { limit, windowMs } with positive numbers",
      ),
    )
  }
  if (pendingMaxAge !== undefined && !positive(pendingMaxAge)) {
    problems.push(
      new InvalidParameter("twoFactor.pendingMaxAge", "must be a positive number of seconds"),
    )
  }
}
