/**
 * Tokens this process has already opened (authenticated and decrypted), by their exact compact
 * form. A browser sends the same session cookie with every page until it is re-issued (at most
 * once per `updateAge`), and opening it (base64url, HMAC-SHA-512, AES-CBC) is most of a session
 * read. What is kept is the plaintext: the claims are still parsed and checked (`exp`, `nbf`)
 * on every read, so expiry is unchanged, and a hit counts only for the same salt and while the
 * secret that opened the token is still configured, so removing a secret ends its tokens as
 * before. Only tokens that authenticated get in, and the map is bounded (oldest out first), so
 * memory stays capped whatever clients send.
 */

export const OPENED_TOKENS_SIZE = 512

interface Opened {
  salt: string
  /** The secret whose key opened the token. */
  secret: string
  plaintext: string
}

export class OpenedTokens {
  readonly #entries = new Map<string, Opened>()
  readonly #capacity: number

  constructor(capacity = OPENED_TOKENS_SIZE) {
    this.#capacity = capacity
  }

  get size(): number {
    return this.#entries.size
  }

  /** The plaintext of `token` if it was opened with `salt` and one of `secrets`. */
  get(token: string, salt: string, secrets: readonly string[]): string | undefined {
    const hit = this.#entries.get(token)
    if (hit === undefined || hit.salt !== salt || !secrets.includes(hit.secret)) return undefined
    return hit.plaintext
  }

  set(token: string, salt: string, secret: string, plaintext: string): void {
    if (this.#entries.size >= this.#capacity && !this.#entries.has(token)) {
      this.#entries.delete(this.#entries.keys().next().value as string)
    }
    this.#entries.set(token, { salt, secret, plaintext })
  }
}
