/**
 * The `twoFactor` option, resolved and checked once per config. Two-factor sign-in keeps its
 * secrets in the adapter, so the check names every adapter method that is missing.
 */
import { type Adapter, twoFactorAdapterMethods } from "../../adapters.js"
import {
  type AuthError,
  InvalidParameter,
  MissingAdapter,
  MissingAdapterMethods,
} from "../../errors.js"
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

/** The problems of `twoFactor` (none when it is unset). */
export function checkTwoFactor(
  options: TwoFactorOptions | undefined,
  adapter: Adapter | undefined,
  problems: AuthError[],
): void {
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
  if (!adapter) {
    problems.push(
      new MissingAdapter(
        `Two-factor sign-in stores sealed secrets and hashed recovery codes and needs an adapter with ${twoFactorAdapterMethods.join(", ")}`,
      ),
    )
    return
  }
  const missing = twoFactorAdapterMethods.filter(
    (m) => typeof (adapter as Record<string, unknown>)[m] !== "function",
  )
  if (missing.length > 0) {
    problems.push(
      new MissingAdapterMethods(
        `Two-factor sign-in (twoFactor) needs the adapter methods: ${missing.join(", ")}`,
        { details: { missing } },
      ),
    )
  }
}
