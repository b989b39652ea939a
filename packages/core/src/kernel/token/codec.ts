/**
 * `encode` and `decode` on top of a JWE backend: parameter checks, key choice by `kid`,
 * claims. Everything here is shared by the Node and the WebCrypto paths.
 */
import { jwe } from "#jwe"
import { InvalidParameter, MissingSecret } from "../errors/errors.js"
import {
  type CompactParts,
  type DerivedKey,
  ENCODING_ENC,
  type Enc,
  type JweBackend,
} from "./backend.js"
import { hasValidClaims, nowSeconds } from "./claims.js"
import { readProtectedHeader, splitCompact } from "./compact.js"
import { KeyCache } from "./key-cache.js"
import { OpenedTokens } from "./opened-tokens.js"

/** Seconds in 30 days. */
const DEFAULT_MAX_AGE = 30 * 24 * 60 * 60

export interface EncodeInput {
  token?: Record<string, unknown>
  salt: string
  secret: string | string[]
  maxAge?: number
}

export interface DecodeInput {
  token?: string | null
  salt: string
  secret: string | string[]
}

type Awaitable<T> = T | Promise<T>

export interface TokenCodec {
  encodeToken(params: EncodeInput): Promise<string>
  decodeToken(params: DecodeInput): Promise<Record<string, unknown> | null>
  /** Whether a token that decodes was sealed with the first (newest) of `secret`. */
  sealedWithFirstSecret(params: {
    token: string
    salt: string
    secret: string | string[]
  }): Promise<boolean>
}

/** What opening a token gave, and with which secret (for `OpenedTokens`). */
interface OpenedWith {
  plaintext: string
  secret: string
}

/** `encode`/`decode` over one backend, with its own key cache and cache of opened tokens. */
export function createTokenCodec(backend: JweBackend): TokenCodec {
  const keys = new KeyCache(backend)
  const openedTokens = new OpenedTokens()

  async function encodeToken(params: EncodeInput): Promise<string> {
    const [secret] = secretList(params?.secret)
    checkSalt(params.salt)
    const { token = {}, maxAge = DEFAULT_MAX_AGE } = params
    // Negative is allowed: tests mint already-expired tokens that way (Auth.js accepts it).
    if (typeof maxAge !== "number" || !Number.isFinite(maxAge)) {
      throw new InvalidParameter("maxAge", "must be a finite number of seconds")
    }
    if (typeof token !== "object" || token === null || Array.isArray(token)) {
      throw new InvalidParameter("token", "must be a plain object of claims")
    }
    const iat = nowSeconds()
    const claims = { ...token, iat, exp: iat + Math.floor(maxAge), jti: crypto.randomUUID() }
    const key = await keys.get(secret!, params.salt, ENCODING_ENC)
    return backend.seal(key, JSON.stringify(claims))
  }

  async function decodeToken(params: DecodeInput): Promise<Record<string, unknown> | null> {
    const secrets = secretList(params?.secret)
    checkSalt(params.salt)
    const { token } = params
    if (typeof token !== "string" || token === "") return null
    let plaintext = openedTokens.get(token, params.salt, secrets)
    if (plaintext === undefined) {
      const parts = splitCompact(token)
      if (!parts) return null
      const header = readProtectedHeader(parts.headerB64)
      if (!header) return null
      const opening =
        header.kid === undefined
          ? await openWithEachSecret(secrets, params.salt, header.enc, parts)
          : openWithKid(secrets, params.salt, header.enc, header.kid, parts)
      // On Node everything above is synchronous; awaiting a settled value would still cost a
      // microtask turn per step, which is a measurable share of a 10 µs decode.
      const opened = opening instanceof Promise ? await opening : opening
      if (!opened) return null
      openedTokens.set(token, params.salt, opened.secret, opened.plaintext)
      plaintext = opened.plaintext
    }

    let payload: unknown
    try {
      payload = JSON.parse(plaintext)
    } catch {
      return null
    }
    return hasValidClaims(payload, nowSeconds()) ? payload : null
  }

  /** The `kid` names the key: find the secret that derives it, no trial decryption. */
  function openWithKid(
    secrets: string[],
    salt: string,
    enc: Enc,
    kid: string,
    parts: CompactParts,
  ): Awaitable<OpenedWith | null> {
    const keys_ = secrets.map((secret) => keys.get(secret, salt, enc))
    if (keys_.some((k) => k instanceof Promise)) {
      return Promise.all(keys_).then((all) => {
        const i = all.findIndex((k) => k.kid === kid)
        return i === -1 ? null : openedWith(all[i]!, secrets[i]!, parts)
      })
    }
    const i = (keys_ as DerivedKey[]).findIndex((k) => k.kid === kid)
    return i === -1 ? null : openedWith(keys_[i] as DerivedKey, secrets[i]!, parts)
  }

  function openedWith(
    key: DerivedKey,
    secret: string,
    parts: CompactParts,
  ): Awaitable<OpenedWith | null> {
    const opened = backend.open(key, parts)
    if (opened instanceof Promise) {
      return opened.then((plaintext) => (plaintext ? { plaintext, secret } : null))
    }
    return opened ? { plaintext: opened, secret } : null
  }

  /** Tokens without `kid` (older or foreign issuers): try the secrets in order. */
  async function openWithEachSecret(
    secrets: string[],
    salt: string,
    enc: Enc,
    parts: CompactParts,
  ): Promise<OpenedWith | null> {
    for (const secret of secrets) {
      const key = keys.get(secret, salt, enc)
      const opened = backend.open(key instanceof Promise ? await key : key, parts)
      const plaintext = opened instanceof Promise ? await opened : opened
      if (plaintext) return { plaintext, secret }
    }
    return null
  }

  /**
   * The `kid` names the key, so comparing it with the newest key's costs no decryption (both
   * come from caches); a token without `kid` can only tell by a trial opening.
   */
  async function sealedWithFirstSecret(params: {
    token: string
    salt: string
    secret: string | string[]
  }): Promise<boolean> {
    const [first] = secretList(params.secret)
    const parts = splitCompact(params.token)
    const header = parts && readProtectedHeader(parts.headerB64)
    if (!parts || !header) return false
    if (header.kid === undefined) {
      return (await openWithEachSecret([first!], params.salt, header.enc, parts)) !== null
    }
    const key = await keys.get(first!, params.salt, header.enc)
    return key.kid === header.kid
  }

  return { encodeToken, decodeToken, sealedWithFirstSecret }
}

/** The codec of this runtime: `#jwe` is node:crypto on Node, jose/WebCrypto elsewhere. */
export const { encodeToken, decodeToken, sealedWithFirstSecret } = createTokenCodec(jwe)

function secretList(secret: unknown): string[] {
  if (Array.isArray(secret)) {
    if (secret.length === 0) throw new InvalidParameter("secret", "must not be an empty array")
    for (const s of secret) {
      if (typeof s !== "string" || s === "") {
        throw new InvalidParameter("secret", "must hold only non-empty strings")
      }
    }
    return secret
  }
  if (secret === undefined || secret === null || secret === "") {
    throw new MissingSecret("No secret given: pass `secret` or set AUTH_SECRET")
  }
  if (typeof secret !== "string") {
    throw new InvalidParameter("secret", "must be a string or an array of strings")
  }
  return [secret]
}

function checkSalt(salt: unknown): asserts salt is string {
  if (typeof salt !== "string") {
    throw new InvalidParameter("salt", "must be a string (for session cookies: the cookie name)")
  }
}
