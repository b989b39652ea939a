/**
 * Splitting a compact JWE and vetting its protected header before any key is touched. Only
 * what Auth.js v5 tokens use is accepted: `alg: "dir"`, `enc` A256CBC-HS512 or A256GCM, no
 * `crit` (we understand no extensions), no `zip` (decompression bombs), no key-carrying header
 * (`jwk`, `jku`, `x5u`, `x5c`, `x5t`, `x5t#S256`: the key is ours, never the token's), an optional
 * string `kid`.
 */
import type { CompactParts, Enc } from "./backend.js"
import { isCanonicalBase64url } from "./base64url.js"

export interface ProtectedHeader {
  readonly enc: Enc
  readonly kid: string | undefined
}

/** Tokens longer than this are refused unread: no session cookie set is ever near it. */
export const MAX_TOKEN_LENGTH = 256 * 1024

/** Extensions we do not implement, compression, and every header that points at or carries a key. */
const REFUSED_HEADERS = ["crit", "zip", "jwk", "jku", "x5u", "x5c", "x5t", "x5t#S256"] as const

const textDecoder = new TextDecoder("utf-8", { fatal: true })

/** Split and check the shape of a compact JWE; `null` if it is not one. */
export function splitCompact(token: string): CompactParts | null {
  if (token.length > MAX_TOKEN_LENGTH) return null
  const parts = token.split(".")
  if (parts.length !== 5) return null
  const [headerB64, encryptedKey, iv, ciphertext, tag] = parts as [
    string,
    string,
    string,
    string,
    string,
  ]
  // `dir` carries no encrypted key: a non-empty one means some other algorithm.
  if (encryptedKey !== "" || headerB64 === "" || iv === "" || ciphertext === "" || tag === "") {
    return null
  }
  for (const segment of parts) if (!isCanonicalBase64url(segment)) return null
  return { token, headerB64, iv, ciphertext, tag }
}

// Every token one deployment issues carries the same few headers, so parsing each distinct
// header once saves work on every request. Bounded: attackers can send endless new headers.
const headerCache = new Map<string, ProtectedHeader | null>()
const HEADER_CACHE_SIZE = 64

/** Decode and vet the protected header; `null` if it is not one we accept. */
export function readProtectedHeader(headerB64: string): ProtectedHeader | null {
  const cached = headerCache.get(headerB64)
  if (cached !== undefined) return cached
  const header = parseHeader(headerB64)
  if (headerCache.size >= HEADER_CACHE_SIZE) headerCache.clear()
  headerCache.set(headerB64, header)
  return header
}

function parseHeader(headerB64: string): ProtectedHeader | null {
  let value: unknown
  try {
    value = JSON.parse(textDecoder.decode(base64urlToBytes(headerB64)))
  } catch {
    return null
  }
  if (typeof value !== "object" || value === null || Array.isArray(value)) return null
  const h = value as Record<string, unknown>
  if (h.alg !== "dir") return null
  if (h.enc !== "A256CBC-HS512" && h.enc !== "A256GCM") return null
  for (const name of REFUSED_HEADERS) if (name in h) return null
  if (h.kid !== undefined && typeof h.kid !== "string") return null
  return { enc: h.enc, kid: h.kid }
}

/** base64url → bytes without Node's Buffer, for code shared with edge runtimes. */
export function base64urlToBytes(s: string): Uint8Array<ArrayBuffer> {
  const binary = atob(s.replace(/-/g, "+").replace(/_/g, "/"))
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}
