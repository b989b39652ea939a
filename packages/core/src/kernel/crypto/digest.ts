/** SHA-256 for keys and bindings that must not hold the raw value (web crypto only). */
import { toBase64Url } from "./random.js"

const encoder = new TextEncoder()

/** SHA-256 of the UTF-8 text, base64url without padding. */
export async function sha256Base64Url(value: string): Promise<string> {
  return toBase64Url(new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(value))))
}
