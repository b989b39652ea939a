/**
 * Derived keys cached per (secret, salt, enc): HKDF and the SHA-512 thumbprint cost more than
 * the decryption itself, and Auth.js repeats both on every call. The cache is a bounded LRU,
 * because salts (and, through `getToken`, secrets) may come from callers: memory stays capped.
 */
import type { DerivedKey, Enc, JweBackend } from "./backend.js"

export const KEY_CACHE_SIZE = 256

export class KeyCache {
  readonly #entries = new Map<string, DerivedKey | Promise<DerivedKey>>()
  readonly #backend: JweBackend
  readonly #capacity: number

  constructor(backend: JweBackend, capacity = KEY_CACHE_SIZE) {
    this.#backend = backend
    this.#capacity = capacity
  }

  get size(): number {
    return this.#entries.size
  }

  get(secret: string, salt: string, enc: Enc): DerivedKey | Promise<DerivedKey> {
    // Length prefixes keep ("a", "b|c") and ("a|b", "c") apart whatever the strings contain.
    const id = `${enc}|${salt.length}|${salt}|${secret}`
    const hit = this.#entries.get(id)
    if (hit !== undefined) {
      this.#entries.delete(id)
      this.#entries.set(id, hit)
      return hit
    }
    const key = this.#backend.deriveKey(secret, salt, enc)
    if (this.#entries.size >= this.#capacity) {
      this.#entries.delete(this.#entries.keys().next().value as string)
    }
    this.#entries.set(id, key)
    if (key instanceof Promise) key.catch(() => this.#entries.delete(id))
    return key
  }
}
