/**
 * Recovery codes: ten per user, 50 random bits each (10 base32 characters, shown as
 * `xxxxx-xxxxx`), shown once and stored as SHA-256 hashes bound to the user. A code has too much
 * entropy for a dictionary, so a fast hash is enough; binding the user id means one hash cannot
 * be tried against another account.
 */
import { sha256Base64Url } from "../../kernel/crypto/digest.js"
import { randomBytes } from "../../kernel/crypto/random.js"

export const RECOVERY_CODE_COUNT = 10
const ALPHABET = "abcdefghijkmnpqrstuvwxyz23456789"

function oneCode(): string {
  const bytes = randomBytes(10)
  let out = ""
  // 32 symbols: the low five bits of each byte are uniform.
  for (const byte of bytes) out += ALPHABET[byte & 31]
  return `${out.slice(0, 5)}-${out.slice(5)}`
}

/** A new set of {@link RECOVERY_CODE_COUNT} distinct codes, as the user is shown them. */
export function newRecoveryCodes(): string[] {
  const codes = new Set<string>()
  while (codes.size < RECOVERY_CODE_COUNT) codes.add(oneCode())
  return [...codes]
}

/** A code as typed, canonical: lower case, without spaces or dashes; `null` if it cannot be one. */
export function normalizeRecoveryCode(value: string): string | null {
  const plain = value.toLowerCase().replace(/[\s-]/g, "")
  return /^[a-z2-9]{10}$/.test(plain) ? plain : null
}

/** What the adapter stores for `code` of `userId`. */
export function hashRecoveryCode(userId: string, code: string): Promise<string> {
  const plain = normalizeRecoveryCode(code) ?? code
  return sha256Base64Url(`latchkey.recovery-code\u0000${userId}\u0000${plain}`)
}
