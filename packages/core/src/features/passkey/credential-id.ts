/**
 * Credential ids and keys as Auth.js stores them, so an Auth.js database's passkeys keep
 * working: `credentialID` (and the account's `providerAccountId`) in standard base64 with
 * padding, the COSE public key in standard base64, transports comma-joined. The browser and
 * `@simplewebauthn/server` speak base64url.
 */
import type { AuthenticatorTransport } from "@simplewebauthn/server"
import { isoBase64URL } from "@simplewebauthn/server/helpers"

/** WebAuthn caps credential ids at 1023 bytes (L3 §5.1): 1364 base64url characters. */
const MAX_ID_LENGTH = 1364

/**
 * A credential id from the browser (unpadded base64url, as `toJSON()` gives it), or `null` when
 * it is not one. Only the canonical spelling is accepted, so one credential has one stored id.
 */
export function toStoredCredentialId(base64url: unknown): string | null {
  if (typeof base64url !== "string" || base64url.length > MAX_ID_LENGTH) return null
  if (!/^[A-Za-z0-9_-]+$/.test(base64url) || base64url.length % 4 === 1) return null
  const bytes = isoBase64URL.toBuffer(base64url)
  if (isoBase64URL.fromBuffer(bytes) !== base64url) return null
  return isoBase64URL.fromBuffer(bytes, "base64")
}

/** A stored id (standard base64) as the browser and the verifier want it. */
export function fromStoredCredentialId(stored: string): string {
  return isoBase64URL.fromBuffer(isoBase64URL.toBuffer(stored, "base64"))
}

export function publicKeyToStored(key: Uint8Array): string {
  return isoBase64URL.fromBuffer(new Uint8Array(key), "base64")
}

export function publicKeyFromStored(stored: string): Uint8Array<ArrayBuffer> {
  return isoBase64URL.toBuffer(stored, "base64") as Uint8Array<ArrayBuffer>
}

export function toTransports(stored: string | null | undefined): AuthenticatorTransport[] {
  if (!stored) return []
  return stored.split(",").filter((t) => t !== "") as AuthenticatorTransport[]
}

export function transportsToStored(transports: readonly string[] | undefined): string | null {
  return transports && transports.length > 0 ? transports.join(",") : null
}
