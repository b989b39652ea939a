/**
 * What the `sessions."sessionToken"` column holds for a session token.
 *
 * With hashing on (the default), the SHA-256 of the token, hex-encoded: a leaked database or
 * backup then holds no usable session cookie (OWASP ASVS 7.2 / 6.5.2 by analogy; Lucia's
 * recipe). The token is 256 random bits, so an unsalted fast hash is enough: there is nothing
 * to guess. The hex digest is 64 characters, within Auth.js's VARCHAR(255).
 */
export async function storedSessionToken(token: string, hash: boolean): Promise<string> {
  if (!hash) return token
  const known = recentlyHashed.get(token)
  if (known !== undefined) return known
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token))
  const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("")
  if (recentlyHashed.size >= RECENTLY_HASHED) {
    recentlyHashed.delete(recentlyHashed.keys().next().value as string)
  }
  recentlyHashed.set(token, hex)
  return hex
}

/**
 * The hashes of the tokens seen last. A browser presents the same token on every page, and
 * `crypto.subtle.digest` is asynchronous (a trip through a worker thread on Node), which cost
 * about as much as the query itself; a hash never changes, so a bounded map (oldest out first)
 * is safe to keep.
 */
const RECENTLY_HASHED = 1024
const recentlyHashed = new Map<string, string>()
