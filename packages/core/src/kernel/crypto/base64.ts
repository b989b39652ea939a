/**
 * Standard base64 (with padding) both ways, and base64url decoding: what stored credentials and
 * their wire forms need, with the platform's own `atob`/`btoa` (no dependency pulls in a codec).
 */
import { toBase64Url } from "./random.js"

export { toBase64Url }

export function toBase64(bytes: Uint8Array): string {
  let binary = ""
  for (const byte of bytes) binary += String.fromCharCode(byte)
  return btoa(binary)
}

/**
 * The bytes of base64 or base64url text (padding optional). Throws on characters of neither
 * alphabet, as `atob` does; callers that take untrusted text check it first.
 */
export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const standard = text.replace(/-/g, "+").replace(/_/g, "/")
  const binary = atob(standard.padEnd(Math.ceil(standard.length / 4) * 4, "="))
  const bytes = new Uint8Array(binary.length)
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i)
  return bytes
}
