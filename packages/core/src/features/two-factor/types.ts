/**
 * Public types of two-factor sign-in (TOTP and recovery codes). This module imports nothing
 * that imports it back: the adapter contract and the config types import from here.
 */

type Awaitable<T> = T | PromiseLike<T>

/** One rule: at most `limit` attempts per `windowMs` milliseconds. */
export interface TwoFactorRateLimitRule {
  limit: number
  windowMs: number
}

/** The user as the policy sees them (the adapter's user record). */
export interface TwoFactorPolicyUser {
  id: string
  email?: string | null | undefined
  name?: string | null | undefined
}

/** Something that happened to a user's second factor, for audit logs and notifications. */
export type TwoFactorEvent =
  | { type: "enabled"; userId: string }
  | { type: "disabled"; userId: string }
  | { type: "recovery-codes-regenerated"; userId: string }
  /** A recovery code was spent; `remaining` says how many the user has left. */
  | { type: "recovery-code-used"; userId: string; remaining: number | null }

/** The top-level `twoFactor` option. Needs an adapter with the two-factor methods. */
export interface TwoFactorOptions {
  /** Shown by authenticator apps next to the account (`issuer` of the otpauth:// URI). */
  issuer: string
  /**
   * Whether a user must have a second factor: after the first factor, a user without one is
   * sent to enrollment before any session is issued. Default `false`.
   */
  required?: boolean | ((user: TwoFactorPolicyUser) => Awaitable<boolean>)
  /** Code attempts per user, across instances (through the store). Default 10 per 15 minutes. */
  rateLimit?: TwoFactorRateLimitRule
  /** Seconds between the first factor and the code before starting again. Default 300. */
  pendingMaxAge?: number
  /** Called (awaited, errors logged) after each {@link TwoFactorEvent}. */
  onEvent?: (event: TwoFactorEvent) => Awaitable<void>
}

export type { AdapterTwoFactor } from "../../kernel/types/adapters.js"

/** What `GET {basePath}/two-factor/status` answers for the signed-in user. */
export interface TwoFactorStatus {
  enabled: boolean
  /** An enrollment was started and waits for its first code. */
  pendingEnrollment: boolean
  /** Unused recovery codes; `null` when not enabled. */
  recoveryCodesLeft: number | null
  /** Whether the policy requires a second factor for this user. */
  required: boolean
}

/** What starting an enrollment answers: everything an authenticator app needs. */
export interface TwoFactorEnrollment {
  /** `otpauth://totp/…`: what the QR code encodes. */
  uri: string
  /** The QR code of `uri`, an SVG document (no script, no external reference). */
  qrSvg: string
  /** The base32 secret, for typing it in by hand. */
  secret: string
}

/**
 * The `twoFactor` key of the configuration: `TwoFactor({ … })` (which brings the feature), or
 * the plain options where the Qwik bindings load the feature for them.
 */
export type TwoFactorConfig = TwoFactorOptions &
  import("../../kernel/feature/feature.js").CarriesFeature
