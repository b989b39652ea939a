/** The CSP hash of an inline script a built-in page carries (the passkey feature's, say). */

const hashes = new Map<string, Promise<string>>()

/** `'sha256-…'` of an inline script, as CSP `script-src` wants it (cached per source). */
export function scriptHash(source: string): Promise<string> {
  let hash = hashes.get(source)
  if (!hash) {
    hash = crypto.subtle
      .digest("SHA-256", new TextEncoder().encode(source))
      .then((digest) => `'sha256-${btoa(String.fromCharCode(...new Uint8Array(digest)))}'`)
    hashes.set(source, hash)
  }
  return hash
}
