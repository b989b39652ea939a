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
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token))
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("")
}
