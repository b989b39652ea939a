/**
 * Checking a typed password against a stored hash (sign-in, and the current password of the
 * account changes).
 *
 * Hashes are made of the password's NFKC form (NIST SP 800-63B §3.1.1.2; `policy.ts`). Those
 * made before (of its NFC form) keep working: when the two forms of what was typed differ, a
 * hash the NFKC form does not match is checked against the NFC form too, and sign-in replaces
 * a hash that matched that way. Whether the second check runs depends only on the characters
 * typed, never on the account, so an unknown address (checked against the dummy hash) pays
 * for it exactly as a known one does.
 */
import type { PasswordHasher } from "./hash.js"
import { normalised, normalisePassword } from "./policy.js"

/** A typed password in the forms it is checked in. */
export interface TypedPassword {
  /** NFKC: how hashes are made. */
  readonly password: string
  /** NFC, when it differs: how hashes were made before NFKC. */
  readonly legacy?: string
}

/** The forms of a typed password, or `null` when it is not a string or over the byte bound. */
export function typedPassword(value: unknown, maxBytes: number): TypedPassword | null {
  const password = normalisePassword(value, maxBytes)
  if (password === null) return null
  // A legacy form over the bound cannot have been hashed (the policy refused it then).
  const legacy = normalised(value, maxBytes, "NFC")
  return legacy === null || legacy === password ? { password } : { password, legacy }
}

/** `"current"` or `"legacy"`: which form matched (a legacy match is to be rehashed); else false. */
export async function verifyPassword(
  hasher: PasswordHasher,
  hash: string,
  typed: TypedPassword,
): Promise<"current" | "legacy" | false> {
  if (await hasher.verify(hash, typed.password)) return "current"
  if (typed.legacy !== undefined && (await hasher.verify(hash, typed.legacy))) return "legacy"
  return false
}
