/**
 * The operations on a user's second factor, shared by the sign-in step, the HTTP endpoints and
 * the Qwik binding: status, enroll, confirm, disable, regenerate recovery codes, verify.
 *
 * Every code attempt is counted per user in the store before it is checked (so instances
 * sharing Redis share the limit), and an accepted TOTP code consumes its time step in the
 * store (so two instances cannot both accept the same code).
 */

import type { ResolvedConfig } from "../../kernel/config/resolve.js"
import { sha256Base64Url } from "../../kernel/crypto/digest.js"
import {
  EventError,
  InvalidTwoFactorCode,
  MissingAdapterMethods,
  RateLimited,
  TwoFactorStateError,
} from "../../kernel/errors/errors.js"
import { countAttempt } from "../../kernel/rate-limit/count-attempt.js"
import type { Adapter } from "../../kernel/types/adapters.js"
import { type ResolvedTwoFactor, twoFactorSettings } from "./config.js"
import { hashRecoveryCode, newRecoveryCodes, normalizeRecoveryCode } from "./recovery-codes.js"
import { openTotpSecret, sealTotpSecret } from "./secret-at-rest.js"
import {
  matchTotpStep,
  newTotpSecret,
  normalizeTotpInput,
  qrSvg,
  TOTP_PERIOD,
  TOTP_WINDOW,
  totpUri,
} from "./totp.js"
import type {
  TwoFactorEnrollment,
  TwoFactorEvent,
  TwoFactorPolicyUser,
  TwoFactorStatus,
} from "./types.js"

type TwoFactorAdapter = Required<
  Pick<
    Adapter,
    | "getTwoFactor"
    | "setTwoFactor"
    | "deleteTwoFactor"
    | "replaceRecoveryCodes"
    | "useRecoveryCode"
    | "countRecoveryCodes"
  >
>

export interface TwoFactorContext {
  config: ResolvedConfig
  twoFactor: ResolvedTwoFactor
  adapter: TwoFactorAdapter
}

/** The two-factor context of `config`, or a typed error saying what is missing. */
export function twoFactorContext(config: ResolvedConfig): TwoFactorContext {
  const twoFactor = twoFactorSettings(config)
  const adapter = config.adapter
  if (!twoFactor) {
    throw new TwoFactorStateError("Two-factor sign-in is not configured (set the twoFactor option)")
  }
  const fns = adapter as Partial<TwoFactorAdapter> | undefined
  if (
    !fns?.getTwoFactor ||
    !fns.setTwoFactor ||
    !fns.deleteTwoFactor ||
    !fns.replaceRecoveryCodes ||
    !fns.useRecoveryCode ||
    !fns.countRecoveryCodes
  ) {
    throw new MissingAdapterMethods("Two-factor sign-in needs the adapter's two-factor methods")
  }
  return { config, twoFactor, adapter: fns as TwoFactorAdapter }
}

async function emit(tctx: TwoFactorContext, event: TwoFactorEvent): Promise<void> {
  if (!tctx.twoFactor.onEvent) return
  try {
    await tctx.twoFactor.onEvent(event)
  } catch (cause) {
    tctx.config.logger.error(
      new EventError("The twoFactor.onEvent handler threw", {
        cause,
        details: { event: event.type },
      }),
    )
  }
}

/** Whether the policy requires a second factor of `user`. */
export async function isRequiredFor(
  twoFactor: ResolvedTwoFactor,
  user: TwoFactorPolicyUser,
): Promise<boolean> {
  const { required } = twoFactor
  return typeof required === "function" ? (await required(user)) === true : required === true
}

/** Whether `userId` has a confirmed second factor. */
export async function isEnabledFor(tctx: TwoFactorContext, userId: string): Promise<boolean> {
  const record = await tctx.adapter.getTwoFactor(userId)
  return record !== null && record.enabledAt !== null
}

export async function twoFactorStatus(
  tctx: TwoFactorContext,
  user: TwoFactorPolicyUser,
): Promise<TwoFactorStatus> {
  const record = await tctx.adapter.getTwoFactor(user.id)
  const enabled = record !== null && record.enabledAt !== null
  return {
    enabled,
    pendingEnrollment: record !== null && record.enabledAt === null,
    recoveryCodesLeft: enabled ? await tctx.adapter.countRecoveryCodes(user.id) : null,
    required: await isRequiredFor(tctx.twoFactor, user),
  }
}

/**
 * Starts (or restarts) an enrollment: a new secret, sealed and stored unconfirmed. Refused when
 * a confirmed one exists: replacing it takes disabling first.
 */
export async function beginEnrollment(
  tctx: TwoFactorContext,
  user: TwoFactorPolicyUser,
): Promise<TwoFactorEnrollment> {
  if (await isEnabledFor(tctx, user.id)) {
    throw new TwoFactorStateError("Two-factor sign-in is already on: turn it off first")
  }
  const secret = newTotpSecret()
  const sealed = await sealTotpSecret(tctx.config.secret, user.id, secret)
  await tctx.adapter.setTwoFactor({ userId: user.id, secret: sealed, enabledAt: null })
  const label =
    (typeof user.email === "string" && user.email) ||
    (typeof user.name === "string" && user.name) ||
    user.id
  const uri = totpUri(secret, tctx.twoFactor.issuer, label)
  return { uri, qrSvg: await qrSvg(uri), secret }
}

/**
 * Confirms the started enrollment with its first valid code; returns the ten recovery codes,
 * shown this once.
 */
export async function confirmEnrollment(
  tctx: TwoFactorContext,
  userId: string,
  code: string,
): Promise<string[]> {
  const record = await tctx.adapter.getTwoFactor(userId)
  if (!record || record.enabledAt !== null) {
    throw new TwoFactorStateError("No enrollment is waiting for its first code: start again")
  }
  await checkTotp(tctx, userId, record.secret, code)
  await resetCodeAttempts(tctx, userId)
  await tctx.adapter.setTwoFactor({ ...record, enabledAt: new Date() })
  const codes = await replaceCodes(tctx, userId)
  await emit(tctx, { type: "enabled", userId })
  return codes
}

export async function disableTwoFactor(tctx: TwoFactorContext, userId: string): Promise<void> {
  const record = await tctx.adapter.getTwoFactor(userId)
  if (!record) throw new TwoFactorStateError("Two-factor sign-in is not on")
  await tctx.adapter.deleteTwoFactor(userId)
  if (record.enabledAt !== null) await emit(tctx, { type: "disabled", userId })
}

/** A new set of ten recovery codes; the previous set stops working. */
export async function regenerateRecoveryCodes(
  tctx: TwoFactorContext,
  userId: string,
): Promise<string[]> {
  if (!(await isEnabledFor(tctx, userId))) {
    throw new TwoFactorStateError("Two-factor sign-in is not on")
  }
  const codes = await replaceCodes(tctx, userId)
  await emit(tctx, { type: "recovery-codes-regenerated", userId })
  return codes
}

async function replaceCodes(tctx: TwoFactorContext, userId: string): Promise<string[]> {
  const codes = newRecoveryCodes()
  const hashes = await Promise.all(codes.map((c) => hashRecoveryCode(userId, c)))
  await tctx.adapter.replaceRecoveryCodes(userId, hashes)
  return codes
}

/** What a verified second factor was: a TOTP code or a recovery code. */
export type SecondFactorKind = "totp" | "recovery"

/**
 * Verifies the second factor of a sign-in: `code` (TOTP) or `recoveryCode`. Throws
 * `InvalidTwoFactorCode` (wrong, reused, malformed), `RateLimited` (too many attempts for this
 * user) or a `StoreError` (the store cannot count: fail closed).
 */
export async function verifySecondFactor(
  tctx: TwoFactorContext,
  userId: string,
  input: { code?: string | undefined; recoveryCode?: string | undefined },
): Promise<SecondFactorKind> {
  const record = await tctx.adapter.getTwoFactor(userId)
  if (!record || record.enabledAt === null) {
    throw new TwoFactorStateError("Two-factor sign-in is not on for this user")
  }
  if (typeof input.recoveryCode === "string" && input.recoveryCode.trim() !== "") {
    await countCodeAttempt(tctx, userId)
    const plain = normalizeRecoveryCode(input.recoveryCode)
    const used =
      plain !== null &&
      (await tctx.adapter.useRecoveryCode(userId, await hashRecoveryCode(userId, plain)))
    if (!used) refuse("wrong-recovery-code", "The recovery code is wrong or was already used")
    const remaining = await tctx.adapter.countRecoveryCodes(userId)
    await resetCodeAttempts(tctx, userId)
    await emit(tctx, { type: "recovery-code-used", userId, remaining })
    return "recovery"
  }
  await checkTotp(tctx, userId, record.secret, input.code ?? "")
  await resetCodeAttempts(tctx, userId)
  return "totp"
}

function refuse(reason: string, message: string): never {
  throw new InvalidTwoFactorCode(message, { details: { reason } })
}

const attemptsKey = async (userId: string) => `2fa:attempts:${await sha256Base64Url(userId)}`

/** A verified factor starts the user's count afresh (an attacker never gets here). */
export async function resetCodeAttempts(tctx: TwoFactorContext, userId: string): Promise<void> {
  try {
    await tctx.config.store.delete(await attemptsKey(userId))
  } catch (cause) {
    tctx.config.logger.error(cause instanceof Error ? cause : new Error(String(cause)))
  }
}

async function countCodeAttempt(tctx: TwoFactorContext, userId: string): Promise<void> {
  const key = await attemptsKey(userId)
  const verdict = await countAttempt(tctx.config.store, key, tctx.twoFactor.rateLimit, false)
  if (!verdict.allowed) {
    throw new RateLimited("Too many second-factor attempts for this account: try again later", {
      details: { scope: "two-factor", retryAfterSeconds: verdict.retryAfterSeconds },
    })
  }
}

async function checkTotp(
  tctx: TwoFactorContext,
  userId: string,
  sealed: string,
  typed: string,
): Promise<void> {
  await countCodeAttempt(tctx, userId)
  const secret = await openTotpSecret(tctx.config.secret, userId, sealed)
  if (secret === undefined) {
    // No configured secret opens it (rotated away): the user needs their recovery codes.
    refuse("secret-unreadable", "The authenticator secret cannot be opened: use a recovery code")
  }
  const step = matchTotpStep(secret, normalizeTotpInput(typed))
  if (step === null) refuse("wrong-code", "The code is wrong or has expired")
  // Remembered until the step can no longer be accepted (it leaves the ±window). Keyed by the
  // enrollment (its sealed secret), not the user alone: a new secret's codes are new codes.
  const ttlMs = (TOTP_WINDOW * 2 + 2) * TOTP_PERIOD * 1000
  const fresh = await tctx.config.store.consumeOnce(
    `2fa:step:${await sha256Base64Url(`${userId}\u0000${sealed}`)}:${step}`,
    ttlMs,
  )
  if (!fresh) refuse("code-reused", "This code was already used: wait for the next one")
}
