/**
 * What a new password must be (NIST SP 800-63B §3.1.1.2): long enough, not absurdly long, not
 * the account's own address (ASVS V6.2.11), not on a list of common passwords, not known
 * breached (through the app's hook). No composition rules, no expiry: they make passwords worse.
 *
 * - Normalised to Unicode NFKC before anything else (§3.1.1.2), so the same password typed on
 *   a keyboard that sends decomposed accents (NFD), a ligature (`ﬁ`) or full-width letters signs
 *   in the same. Hashes made before NFKC (of the NFC form) still verify: see `verify.ts`.
 * - The upper bound is in UTF-8 bytes and checked before any hashing: a 1 MB "password" costs
 *   a length check, never an argon2 run.
 * - The common-password list is `@zxcvbn-ts/language-common`'s (about 49,000 passwords from
 *   leaks), loaded on first use so it does not slow a cold start.
 */
import { PasswordRejected } from "../../kernel/errors/errors.js"
import type { Awaitable } from "../../kernel/types/awaitable.js"

export interface PasswordPolicyOptions {
  /** Fewest characters (Unicode code points, after NFKC). Default 8; at least 8 is enforced. */
  minLength?: number
  /** Most UTF-8 bytes. Default 1024 (at least 256, so any 64 characters fit). */
  maxBytes?: number
  /** Refuse passwords on the common-password list. Default `true`. */
  refuseCommon?: boolean
  /**
   * A breached-password check (e.g. the k-anonymity range API of Have I Been Pwned): return
   * `true` to refuse. Called only for a password that passed every other rule.
   */
  isBreached?: (password: string) => Awaitable<boolean>
}

export const DEFAULT_MIN_LENGTH = 8
export const DEFAULT_MAX_BYTES = 1024

export interface ResolvedPolicy {
  readonly minLength: number
  readonly maxBytes: number
  readonly refuseCommon: boolean
  readonly isBreached: PasswordPolicyOptions["isBreached"]
}

export function resolvePolicy(options: PasswordPolicyOptions = {}): ResolvedPolicy {
  return Object.freeze({
    minLength: Math.max(DEFAULT_MIN_LENGTH, options.minLength ?? DEFAULT_MIN_LENGTH),
    maxBytes: Math.max(256, options.maxBytes ?? DEFAULT_MAX_BYTES),
    refuseCommon: options.refuseCommon !== false,
    isBreached: options.isBreached,
  })
}

const encoder = new TextEncoder()

/**
 * The password as it is hashed and compared: NFKC, or `null` when it is not a string or is over
 * the byte bound (checked on the raw length first: a string's UTF-8 size is at least its
 * length, so an oversized value is refused without being encoded or normalised).
 */
export function normalisePassword(value: unknown, maxBytes: number): string | null {
  return normalised(value, maxBytes, "NFKC")
}

/** `value` in `form`, or `null` when it is not a string or over `maxBytes` in either form. */
export function normalised(value: unknown, maxBytes: number, form: "NFC" | "NFKC"): string | null {
  if (typeof value !== "string" || value.length > maxBytes) return null
  const text = value.normalize(form)
  return encoder.encode(text).byteLength > maxBytes ? null : text
}

/** What the policy knows of the account a new password is for. */
export interface PasswordOwner {
  /** The account's address (at sign-up, the one typed; at reset, the one the link was mailed to). */
  email?: string | null | undefined
}

/**
 * The normalised password when the policy accepts it; else `PasswordRejected` with a reason.
 * With `owner`, the account's own address and its local part are refused too (ASVS V6.2.11:
 * they are the first guesses of anyone who knows the address).
 */
export async function checkNewPassword(
  value: unknown,
  policy: ResolvedPolicy,
  owner?: PasswordOwner,
): Promise<string> {
  if (typeof value !== "string" || value === "") {
    throw rejected("missing", "Enter a password.")
  }
  const password = normalisePassword(value, policy.maxBytes)
  if (password === null) {
    throw rejected(
      "too-long",
      `This password is too long: use at most ${policy.maxBytes} bytes (about ${Math.floor(policy.maxBytes / 4)} characters of any script).`,
    )
  }
  if ([...password].length < policy.minLength) {
    throw rejected(
      "too-short",
      `Use at least ${policy.minLength} characters. A few unrelated words make a password that is long and easy to remember.`,
    )
  }
  if (isOwnAddress(password, owner?.email)) {
    throw rejected(
      "email",
      "Do not use your email address, or the part before the @, as your password: it is the first thing anyone who knows your address tries.",
    )
  }
  if (policy.refuseCommon && (await isCommonPassword(password))) {
    throw rejected(
      "common",
      "This password is one of the most common ones and is guessed first. Choose one nobody else would.",
    )
  }
  if (policy.isBreached && (await policy.isBreached(password))) {
    throw rejected(
      "breached",
      "This password appeared in a data breach, so attackers try it. Choose another one.",
    )
  }
  return password
}

/**
 * Whether `password` is the address, its local part or that without a `+tag`, compared as
 * addresses are (NFKC, lower case, surrounding spaces ignored).
 */
function isOwnAddress(password: string, email: string | null | undefined): boolean {
  if (typeof email !== "string" || email === "") return false
  const typed = password.normalize("NFKC").trim().toLowerCase()
  const address = email.normalize("NFKC").trim().toLowerCase()
  const at = address.lastIndexOf("@")
  if (at <= 0) return typed === address
  const local = address.slice(0, at)
  const plus = local.indexOf("+")
  return typed === address || typed === local || (plus > 0 && typed === local.slice(0, plus))
}

function rejected(reason: string, message: string): PasswordRejected {
  return new PasswordRejected(message, { details: { reason } })
}

let common: Promise<ReadonlySet<string>> | undefined

/** Whether the password (compared in lower case) is on the common-password list. */
export async function isCommonPassword(password: string): Promise<boolean> {
  common ??= import("@zxcvbn-ts/language-common").then(
    (m) => new Set(m.dictionary["passwords-common"]),
    (error) => {
      common = undefined
      throw error
    },
  )
  return (await common).has(password.toLowerCase())
}
