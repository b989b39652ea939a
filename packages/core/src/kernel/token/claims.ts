/**
 * Time claims checks, the same on every backend: `exp` and `nbf` with the 15 s clock
 * tolerance Auth.js uses, and time claims that are not numbers refused as jose does.
 */
export const CLOCK_TOLERANCE_SECONDS = 15

/** Whole seconds since the epoch. No 32-bit truncation: Auth.js's `| 0` breaks in 2038. */
export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000)
}

/** Whether a decrypted payload is a JSON object with acceptable time claims at `now`. */
export function hasValidClaims(payload: unknown, now: number): payload is Record<string, unknown> {
  if (typeof payload !== "object" || payload === null || Array.isArray(payload)) return false
  const { exp, nbf, iat } = payload as Record<string, unknown>
  if (exp !== undefined && (!isFiniteNumber(exp) || exp <= now - CLOCK_TOLERANCE_SECONDS)) {
    return false
  }
  if (nbf !== undefined && (!isFiniteNumber(nbf) || nbf > now + CLOCK_TOLERANCE_SECONDS)) {
    return false
  }
  if (iat !== undefined && !isFiniteNumber(iat)) return false
  return true
}

function isFiniteNumber(value: unknown): value is number {
  return typeof value === "number" && Number.isFinite(value)
}
