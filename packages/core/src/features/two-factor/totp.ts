/**
 * TOTP (RFC 6238) through `otpauth`: SHA-1, 6 digits, 30-second steps — what every authenticator
 * app reads from a QR code. Verification accepts the previous, current and next step (clock
 * drift), and says which step matched so the caller can refuse a second use of it.
 */
import { Secret, TOTP } from "otpauth"

export const TOTP_PERIOD = 30
export const TOTP_DIGITS = 6
/** Steps accepted either side of the current one. */
export const TOTP_WINDOW = 1

/** A new random secret (160 bits, RFC 4226's recommendation), base32. */
export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32
}

function totp(secret: string, issuer = "", label = "account"): TOTP {
  return new TOTP({
    issuer,
    label,
    secret: Secret.fromBase32(secret),
    algorithm: "SHA1",
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD,
  })
}

/** The `otpauth://` URI for an authenticator app. */
export function totpUri(secret: string, issuer: string, label: string): string {
  return totp(secret, issuer, label).toString()
}

/**
 * The QR code of `uri` as an SVG document. The encoder loads on the first enrollment, not at
 * start-up: signing in with a code never draws one.
 */
export async function qrSvg(uri: string): Promise<string> {
  const { renderSVG } = await import("uqr")
  return renderSVG(uri, { ecc: "M", border: 2 })
}

/** The code for `timestampMs` (tests and the demo's fixture compute codes with it). */
export function totpCode(secret: string, timestampMs = Date.now()): string {
  return totp(secret).generate({ timestamp: timestampMs })
}

/**
 * The time step `code` is valid for, within ±{@link TOTP_WINDOW} of `timestampMs`, or `null`.
 * Anything but exactly six digits is refused before any HMAC.
 */
export function matchTotpStep(
  secret: string,
  code: string,
  timestampMs = Date.now(),
): number | null {
  if (!/^[0-9]{6}$/.test(code)) return null
  const t = totp(secret)
  const delta = t.validate({ token: code, timestamp: timestampMs, window: TOTP_WINDOW })
  if (delta === null) return null
  return t.counter({ timestamp: timestampMs }) + delta
}

/** A code as typed: spaces and dashes dropped ("123 456"). */
export function normalizeTotpInput(value: string): string {
  return value.replace(/[\s-]/g, "")
}
