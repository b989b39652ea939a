/** HMAC-SHA-256 keys derived from the configured secret, one per purpose, via WebCrypto. */
const encoder = new TextEncoder()

/**
 * An HMAC-SHA-256 key for `purpose`, derived with HKDF from `secret` so the raw secret (also
 * the JWE key material) is never used directly as a MAC key.
 */
export async function deriveHmacKey(secret: string, purpose: string): Promise<CryptoKey> {
  const ikm = await crypto.subtle.importKey("raw", encoder.encode(secret), "HKDF", false, [
    "deriveKey",
  ])
  return crypto.subtle.deriveKey(
    {
      name: "HKDF",
      hash: "SHA-256",
      salt: new Uint8Array(0),
      info: encoder.encode(`Latchkey ${purpose}`),
    },
    ikm,
    { name: "HMAC", hash: "SHA-256", length: 256 },
    false,
    ["sign"],
  )
}

export async function hmacSha256(key: CryptoKey, data: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.sign("HMAC", key, encoder.encode(data)))
}
