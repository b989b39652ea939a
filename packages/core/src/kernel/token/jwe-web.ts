/**
 * JWE on runtimes without `node:crypto` (workerd, Vercel Edge, Deno, Bun, browsers): Web Crypto
 * directly. The CryptoKeys are imported once per derived key (which the codec caches), so a token
 * costs two `crypto.subtle` calls (HMAC and AES), where jose's compact API imports both keys
 * again on every call and Auth.js adds HKDF and a thumbprint on top. A256CBC-HS512 is built from
 * its parts as RFC 7518 §5.2 specifies, like `jwe-node.ts` (the tests hold both to the
 * Appendix B.3 vector, to each other and to jose); A256GCM is only ever decrypted.
 */
import { constantTimeEqual } from "../crypto/constant-time.js"
import { toBase64Url } from "../crypto/random.js"
import {
  type CompactParts,
  type DerivedKey,
  type Enc,
  hkdfInfo,
  type JweBackend,
  KEY_LENGTH,
  protectedHeaderJson,
  thumbprintInput,
} from "./backend.js"
import { base64urlToBytes } from "./compact.js"

type Bytes = Uint8Array<ArrayBuffer>

interface WebKeyMaterial {
  /** Our own protected header as AAD (ASCII of its base64url), precomputed. */
  aad: Bytes
  /** A256CBC-HS512: HMAC-SHA-512 with the first half of the key. */
  mac?: CryptoKey
  /** A256CBC-HS512: AES-CBC with the second half; A256GCM: AES-GCM with the whole key. */
  cipher: CryptoKey
}

const TAG_BYTES: Record<Enc, number> = { "A256CBC-HS512": 32, A256GCM: 16 }
const IV_BYTES: Record<Enc, number> = { "A256CBC-HS512": 16, A256GCM: 12 }

const utf8 = new TextEncoder()
const text = new TextDecoder()

async function deriveKey(secret: string, salt: string, enc: Enc): Promise<DerivedKey> {
  const ikm = await crypto.subtle.importKey("raw", utf8.encode(secret), "HKDF", false, [
    "deriveBits",
  ])
  const hkdf = { name: "HKDF", hash: "SHA-256", salt: utf8.encode(salt) }
  const params = { ...hkdf, info: utf8.encode(hkdfInfo(salt)) }
  const raw = new Uint8Array(await crypto.subtle.deriveBits(params, ikm, KEY_LENGTH[enc] * 8))
  // RFC 7638 thumbprint of the key as an `oct` JWK, with the hash jose picks for its size.
  const thumbprint = await crypto.subtle.digest(
    raw.byteLength === 64 ? "SHA-512" : "SHA-256",
    utf8.encode(thumbprintInput(toBase64Url(raw))),
  )
  const kid = toBase64Url(new Uint8Array(thumbprint))
  const headerB64 = toBase64Url(utf8.encode(protectedHeaderJson(enc, kid)))
  const aad = utf8.encode(headerB64)
  const material: WebKeyMaterial =
    enc === "A256CBC-HS512"
      ? {
          aad,
          mac: await importKey(raw.slice(0, 32), { name: "HMAC", hash: "SHA-512" }, ["sign"]),
          cipher: await importKey(raw.slice(32), "AES-CBC", ["encrypt", "decrypt"]),
        }
      : { aad, cipher: await importKey(raw, "AES-GCM", ["decrypt"]) }
  return { enc, kid, headerB64, material }
}

function importKey(raw: Bytes, algorithm: string | HmacImportParams, usages: KeyUsage[]) {
  return crypto.subtle.importKey("raw", raw, algorithm, false, usages)
}

/** The first 32 bytes of HMAC-SHA-512 over AAD ‖ IV ‖ ciphertext ‖ AL (RFC 7518 §5.2.2.1). */
async function cbcTag(mac: CryptoKey, aad: Bytes, iv: Bytes, ciphertext: Bytes): Promise<Bytes> {
  const input = new Uint8Array(aad.byteLength + iv.byteLength + ciphertext.byteLength + 8)
  input.set(aad)
  input.set(iv, aad.byteLength)
  input.set(ciphertext, aad.byteLength + iv.byteLength)
  // AL: the AAD length in bits, a 64-bit big-endian integer.
  new DataView(input.buffer).setBigUint64(input.byteLength - 8, BigInt(aad.byteLength) * 8n)
  return new Uint8Array(await crypto.subtle.sign("HMAC", mac, input)).slice(0, 32)
}

/** AES_256_CBC_HMAC_SHA_512 encryption (RFC 7518 §5.2.2.1) with a caller-chosen IV. */
export async function encryptCbcHs512(
  mac: CryptoKey,
  cipher: CryptoKey,
  iv: Bytes,
  plaintext: Bytes,
  aad: Bytes,
): Promise<{ ciphertext: Bytes; tag: Bytes }> {
  const encrypted = await crypto.subtle.encrypt({ name: "AES-CBC", iv }, cipher, plaintext)
  const ciphertext = new Uint8Array(encrypted)
  return { ciphertext, tag: await cbcTag(mac, aad, iv, ciphertext) }
}

/** AES_256_CBC_HMAC_SHA_512 decryption (RFC 7518 §5.2.2.2); `null` unless the tag verifies. */
export async function decryptCbcHs512(
  mac: CryptoKey,
  cipher: CryptoKey,
  iv: Bytes,
  ciphertext: Bytes,
  tag: Bytes,
  aad: Bytes,
): Promise<Bytes | null> {
  // Authenticate before decrypting, in constant time: no padding oracle, no timing leak.
  if (tag.byteLength !== 32 || !constantTimeEqual(await cbcTag(mac, aad, iv, ciphertext), tag)) {
    return null
  }
  return decryptOrNull({ name: "AES-CBC", iv }, cipher, ciphertext)
}

async function seal(key: DerivedKey, plaintext: string): Promise<string> {
  const { mac, cipher, aad } = key.material as WebKeyMaterial
  if (key.enc !== "A256CBC-HS512" || !mac) throw new TypeError(`cannot encrypt with ${key.enc}`)
  const iv = crypto.getRandomValues(new Uint8Array(16))
  const sealed = await encryptCbcHs512(mac, cipher, iv, utf8.encode(plaintext), aad)
  return `${key.headerB64}..${toBase64Url(iv)}.${toBase64Url(sealed.ciphertext)}.${toBase64Url(sealed.tag)}`
}

async function open(key: DerivedKey, parts: CompactParts): Promise<string | null> {
  const iv = base64urlToBytes(parts.iv)
  const tag = base64urlToBytes(parts.tag)
  if (iv.byteLength !== IV_BYTES[key.enc] || tag.byteLength !== TAG_BYTES[key.enc]) return null
  const { mac, cipher, aad: ownAad } = key.material as WebKeyMaterial
  // Our own tokens carry exactly the key's header: reuse its precomputed AAD.
  const aad = parts.headerB64 === key.headerB64 ? ownAad : utf8.encode(parts.headerB64)
  const ciphertext = base64urlToBytes(parts.ciphertext)
  let plaintext: Bytes | null
  if (key.enc === "A256CBC-HS512") {
    plaintext = mac ? await decryptCbcHs512(mac, cipher, iv, ciphertext, tag, aad) : null
  } else {
    plaintext = await decryptGcm(cipher, iv, ciphertext, tag, aad)
  }
  return plaintext && text.decode(plaintext)
}

async function decryptGcm(
  cipher: CryptoKey,
  iv: Bytes,
  ciphertext: Bytes,
  tag: Bytes,
  aad: Bytes,
): Promise<Bytes | null> {
  // Web Crypto takes the tag at the end of the ciphertext.
  const sealed = new Uint8Array(ciphertext.byteLength + tag.byteLength)
  sealed.set(ciphertext)
  sealed.set(tag, ciphertext.byteLength)
  return decryptOrNull({ name: "AES-GCM", iv, additionalData: aad, tagLength: 128 }, cipher, sealed)
}

/** Bad padding or a failed GCM tag: `null`, never a throw (a bad token is not an error). */
async function decryptOrNull(
  params: AesCbcParams | AesGcmParams,
  cipher: CryptoKey,
  data: Bytes,
): Promise<Bytes | null> {
  try {
    return new Uint8Array(await crypto.subtle.decrypt(params, cipher, data))
  } catch {
    return null
  }
}

export const jwe: JweBackend = { deriveKey, seal, open }
