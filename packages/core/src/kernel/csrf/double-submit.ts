/**
 * The signed double-submit token (OWASP "signed double-submit cookie"): the cookie holds
 * `<token>|<hex HMAC-SHA-256(token)>`, keyed from the secret; the page or client echoes
 * `<token>` in the body as `csrfToken`. Same cookie layout as Auth.js (`token|hash`), but an
 * HMAC instead of `SHA-256(token ‖ secret)` and constant-time comparison throughout.
 *
 * The HMAC also covers the session the pair was minted for (`kernel/session/binding.ts`): a pair
 * planted by a sibling subdomain (cookie tossing), or copied from another browser, was minted
 * for another session and does not verify in the victim's.
 */
import { constantTimeEqual } from "../crypto/constant-time.js"
import { deriveHmacKey, hmacSha256 } from "../crypto/hmac.js"
import { fromHex, randomHex, toHex } from "../crypto/random.js"

const TOKEN_BYTES = 32
const encoder = new TextEncoder()
const keyCache = new Map<string, Promise<CryptoKey>>()
const KEY_CACHE_LIMIT = 64

function keyFor(secret: string): Promise<CryptoKey> {
  let key = keyCache.get(secret)
  if (!key) {
    // Bounded: a process serves few secrets; drop the oldest rather than grow.
    if (keyCache.size >= KEY_CACHE_LIMIT) keyCache.delete(keyCache.keys().next().value as string)
    key = deriveHmacKey(secret, "CSRF token")
    keyCache.set(secret, key)
  }
  return key
}

export interface CsrfPair {
  /** What forms and clients send back as `csrfToken`. */
  token: string
  /** The cookie value: `<token>|<hmac>`. */
  cookieValue: string
}

/** What the HMAC covers: the token and the session identity (`""` signed out). */
function signed(token: string, session: string): string {
  return session === "" ? token : `${token}|${session}`
}

/** A fresh token for `session`, signed with the first (encrypting) secret. */
export async function createCsrfPair(secrets: readonly string[], session = ""): Promise<CsrfPair> {
  const token = randomHex(TOKEN_BYTES)
  const mac = await hmacSha256(await keyFor(secrets[0]!), signed(token, session))
  return { token, cookieValue: `${token}|${toHex(mac)}` }
}

/**
 * The token inside a CSRF cookie if its HMAC verifies for `session` under any configured
 * secret (so a rotation does not invalidate open forms), else `null`.
 */
export async function readCsrfCookie(
  cookieValue: string | undefined,
  secrets: readonly string[],
  session = "",
): Promise<string | null> {
  if (!cookieValue) return null
  const parts = cookieValue.split("|")
  if (parts.length !== 2) return null
  const [token, macHex] = parts as [string, string]
  if (!/^[0-9a-f]{64}$/.test(token)) return null
  const mac = fromHex(macHex)
  if (mac?.byteLength !== 32) return null
  let valid = false
  for (const secret of secrets) {
    const expected = await hmacSha256(await keyFor(secret), signed(token, session))
    // No early exit across secrets either: the time taken does not tell which one matched.
    valid = constantTimeEqual(expected, mac) || valid
  }
  return valid ? token : null
}

/** Whether the submitted token equals the cookie's, compared in constant time. */
export function tokensMatch(submitted: unknown, cookieToken: string): boolean {
  if (typeof submitted !== "string") return false
  return constantTimeEqual(encoder.encode(submitted), encoder.encode(cookieToken))
}
