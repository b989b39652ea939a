/**
 * JWE on runtimes without `node:crypto` (edge workers, Deno, browsers): `jose` over WebCrypto.
 * Same keys, headers and results as `jwe-node.ts`; the tests run both against each other.
 */
import { base64url, CompactEncrypt, calculateJwkThumbprint, compactDecrypt } from "jose"
import {
  type CompactParts,
  type DerivedKey,
  type Enc,
  hkdfInfo,
  type JweBackend,
  KEY_LENGTH,
  protectedHeaderJson,
} from "./backend.js"

const utf8 = new TextEncoder()
const text = new TextDecoder()

async function deriveKey(secret: string, salt: string, enc: Enc): Promise<DerivedKey> {
  const ikm = await crypto.subtle.importKey("raw", utf8.encode(secret), "HKDF", false, [
    "deriveBits",
  ])
  const bits = await crypto.subtle.deriveBits(
    { name: "HKDF", hash: "SHA-256", salt: utf8.encode(salt), info: utf8.encode(hkdfInfo(salt)) },
    ikm,
    KEY_LENGTH[enc] * 8,
  )
  const raw = new Uint8Array(bits)
  const kid = await calculateJwkThumbprint(
    { kty: "oct", k: base64url.encode(raw) },
    raw.byteLength === 64 ? "sha512" : "sha256",
  )
  return {
    enc,
    kid,
    headerB64: base64url.encode(protectedHeaderJson(enc, kid)),
    material: raw,
  }
}

async function seal(key: DerivedKey, plaintext: string): Promise<string> {
  return new CompactEncrypt(utf8.encode(plaintext))
    .setProtectedHeader({ alg: "dir", enc: key.enc, kid: key.kid })
    .encrypt(key.material as Uint8Array)
}

async function open(key: DerivedKey, parts: CompactParts): Promise<string | null> {
  try {
    const { plaintext } = await compactDecrypt(parts.token, key.material as Uint8Array, {
      keyManagementAlgorithms: ["dir"],
      contentEncryptionAlgorithms: [key.enc],
    })
    return text.decode(plaintext)
  } catch {
    return null
  }
}

export const jwe: JweBackend = { deriveKey, seal, open }
