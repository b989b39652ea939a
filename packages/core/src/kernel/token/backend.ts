/**
 * The contract both JWE backends fulfil. `#jwe` resolves to `jwe-node.ts` on Node (synchronous
 * `node:crypto`) and to `jwe-web.ts` elsewhere (`jose` over WebCrypto), chosen by the package's
 * `imports` conditions so no runtime probing is needed.
 */

/** Content encryption algorithms a session token may use. Encoding always uses the first. */
export type Enc = "A256CBC-HS512" | "A256GCM"

export const ENCODING_ENC: Enc = "A256CBC-HS512"

/** HKDF output bytes per `enc`: A256CBC-HS512 needs a MAC key and an AES key. */
export const KEY_LENGTH: Record<Enc, number> = { "A256CBC-HS512": 64, A256GCM: 32 }

/** A key derived from (secret, salt, enc), with what each backend precomputes for it. */
export interface DerivedKey {
  readonly enc: Enc
  /** RFC 7638 thumbprint of the key as an `oct` JWK: the `kid` header of tokens it makes. */
  readonly kid: string
  /** base64url of the protected header `{"alg":"dir","enc":…,"kid":…}`, fixed per key. */
  readonly headerB64: string
  /** Backend-private key material. */
  readonly material: unknown
}

/** The five segments of a compact JWE, already checked to be canonical base64url. */
export interface CompactParts {
  readonly token: string
  readonly headerB64: string
  readonly iv: string
  readonly ciphertext: string
  readonly tag: string
}

export interface JweBackend {
  deriveKey(secret: string, salt: string, enc: Enc): DerivedKey | Promise<DerivedKey>
  /**
   * Encrypt the UTF-8 bytes of `plaintext` with the key's `enc` under its protected header;
   * returns the compact JWE. Strings in and out: each runtime has its own fastest UTF-8 path.
   */
  seal(key: DerivedKey, plaintext: string): string | Promise<string>
  /** Decrypt and authenticate, as UTF-8 text; `null` when anything does not verify. Never throws. */
  open(key: DerivedKey, parts: CompactParts): string | null | Promise<string | null>
}

/** The info string Auth.js uses in HKDF, so keys (and tokens) are interchangeable with it. */
export function hkdfInfo(salt: string): string {
  return `Auth.js Generated Encryption Key (${salt})`
}

/** Members of the `oct` JWK in RFC 7638 order, ready for hashing. */
export function thumbprintInput(kBase64url: string): string {
  return `{"k":"${kBase64url}","kty":"oct"}`
}

/** The protected header, members in the order Auth.js (jose) writes them. */
export function protectedHeaderJson(enc: Enc, kid: string): string {
  return `{"alg":"dir","enc":"${enc}","kid":"${kid}"}`
}
