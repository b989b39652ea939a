/**
 * Credential ids and keys as Auth.js stores them, so an Auth.js database's passkeys keep
 * working: `credentialID` (and the account's `providerAccountId`) in standard base64 with
 * padding, the COSE public key in standard base64, transports comma-joined. The browser and
 * `@simplewebauthn/server` speak base64url. (Converted with `atob`/`btoa`: SimpleWebAuthn's own
 * helpers module would load its whole ASN.1 stack at start-up.)
 */
import type { AuthenticatorTransport } from "@simplewebauthn/server"
import { fromBase64, toBase64, toBase64Url } from "../../kernel/crypto/base64.js"

/** WebAuthn caps credential ids at 1023 bytes (L3 §5.1): 1364 base64url characters. */
const MAX_ID_LENGTH = 1364

/**
 * A credential id from the browser (unpadded base64url, as `toJSON()` gives it), or `null` when
 * it is not one. Only the canonical spelling is accepted, so one credential has one stored id.
 */
export function toStoredCredentialId(base64url: unknown): string | null {
  if (typeof base64url !== "string" || base64url.length > MAX_ID_LENGTH) return null
  if (!/^[A-Za-z0-9_-]+$/.test(base64url) || base64url.length % 4 === 1) return null
  const bytes = fromBase64(base64url)
  if (toBase64Url(bytes) !== base64url) return null
  return toBase64(bytes)
}

/** A stored id (standard base64) as the browser and the verifier want it. */
export function fromStoredCredentialId(stored: string): string {
  return toBase64Url(fromBase64(stored))
}

export function publicKeyToStored(key: Uint8Array): string {
  return toBase64(key)
}

export function publicKeyFromStored(stored: string): Uint8Array<ArrayBuffer> {
  return fromBase64(stored)
}

export function toTransports(stored: string | null | undefined): AuthenticatorTransport[] {
  if (!stored) return []
  return stored.split(",").filter((t) => t !== "") as AuthenticatorTransport[]
}

export function transportsToStored(transports: readonly string[] | undefined): string | null {
  return transports && transports.length > 0 ? transports.join(",") : null
}
