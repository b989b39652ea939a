/**
 * TOTP (RFC 6238 Appendix B vectors, SHA-1), the ±1 step window, recovery codes and the sealed
 * secret.
 */
import { describe, expect, it } from "vitest"
import {
  hashRecoveryCode,
  newRecoveryCodes,
  normalizeRecoveryCode,
} from "../../src/features/two-factor/recovery-codes.js"
import { openTotpSecret, sealTotpSecret } from "../../src/features/two-factor/secret-at-rest.js"
import {
  matchTotpStep,
  newTotpSecret,
  qrSvg,
  totpCode,
  totpUri,
} from "../../src/features/two-factor/totp.js"
import { SECRET } from "../auth/helpers.js"

// RFC 6238's SHA-1 seed, the ASCII "12345678901234567890", in base32.
const RFC_SECRET = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ"
// Appendix B's 8-digit values; a 6-digit code is the same truncation modulo 10^6.
const VECTORS: [number, string][] = [
  [59, "94287082"],
  [1111111109, "07081804"],
  [1111111111, "14050471"],
  [1234567890, "89005924"],
  [2000000000, "69279037"],
  [20000000000, "65353130"],
]

describe("TOTP", () => {
  it.each(VECTORS)("RFC 6238 vector at T=%i", (seconds, eight) => {
    expect(totpCode(RFC_SECRET, seconds * 1000)).toBe(eight.slice(2))
    expect(matchTotpStep(RFC_SECRET, eight.slice(2), seconds * 1000)).toBe(Math.floor(seconds / 30))
  })

  it("accepts the previous and next step, not two away", () => {
    const now = 1_800_000_000_000
    const secret = newTotpSecret()
    const step = Math.floor(now / 30_000)
    expect(matchTotpStep(secret, totpCode(secret, now - 30_000), now)).toBe(step - 1)
    expect(matchTotpStep(secret, totpCode(secret, now + 30_000), now)).toBe(step + 1)
    const farPast = totpCode(secret, now - 60_000)
    const farFuture = totpCode(secret, now + 60_000)
    const near = [-1, 0, 1].map((d) => totpCode(secret, now + d * 30_000))
    if (!near.includes(farPast)) expect(matchTotpStep(secret, farPast, now)).toBeNull()
    if (!near.includes(farFuture)) expect(matchTotpStep(secret, farFuture, now)).toBeNull()
  })

  it("refuses anything but six digits before any HMAC", () => {
    const secret = newTotpSecret()
    for (const bad of ["", "12345", "1234567", "12345a", " 123456", "１２３４５６"]) {
      expect(matchTotpStep(secret, bad)).toBeNull()
    }
  })

  it("builds an otpauth:// URI with issuer and label, and a script-free SVG QR code", async () => {
    const uri = totpUri("JBSWY3DPEHPK3PXP", "Latchkey Demo", "alice@example.com")
    const parsed = new URL(uri)
    expect(parsed.protocol).toBe("otpauth:")
    expect(parsed.searchParams.get("secret")).toBe("JBSWY3DPEHPK3PXP")
    expect(parsed.searchParams.get("issuer")).toBe("Latchkey Demo")
    expect(parsed.searchParams.get("digits")).toBe("6")
    expect(parsed.searchParams.get("period")).toBe("30")
    const svg = await qrSvg(uri)
    expect(svg.startsWith("<svg")).toBe(true)
    expect(svg).not.toMatch(/<script|on\w+=|href/i)
  })
})

describe("recovery codes", () => {
  it("ten distinct codes of 50 bits, normalised as typed", () => {
    const codes = newRecoveryCodes()
    expect(codes).toHaveLength(10)
    expect(new Set(codes).size).toBe(10)
    for (const c of codes) expect(c).toMatch(/^[a-z2-9]{5}-[a-z2-9]{5}$/)
    const first = codes[0]!
    expect(normalizeRecoveryCode(` ${first.toUpperCase()} `)).toBe(first.replace("-", ""))
    expect(normalizeRecoveryCode("short")).toBeNull()
  })

  it("hashes bound to the user: the same code hashes differently for another user", async () => {
    const [code] = newRecoveryCodes()
    const a = await hashRecoveryCode("user-a", code!)
    expect(a).toBe(await hashRecoveryCode("user-a", code!.toUpperCase()))
    expect(a).not.toBe(await hashRecoveryCode("user-b", code!))
    expect(a).not.toContain(code!.replace("-", ""))
  })
})

describe("the TOTP secret at rest", () => {
  it("is sealed: the stored value does not contain the secret, and opens only for its user", async () => {
    const secret = newTotpSecret()
    const sealed = await sealTotpSecret([SECRET], "user-a", secret)
    expect(sealed).not.toContain(secret)
    expect(await openTotpSecret([SECRET], "user-a", sealed)).toBe(secret)
    expect(await openTotpSecret([SECRET], "user-b", sealed)).toBeUndefined()
    expect(
      await openTotpSecret(["another-secret-that-is-32-bytes-long!!"], "user-a", sealed),
    ).toBeUndefined()
    // Rotation: an older secret still opens it.
    expect(
      await openTotpSecret(["a-new-secret-that-is-at-least-32-bytes!!", SECRET], "user-a", sealed),
    ).toBe(secret)
    expect(await openTotpSecret([SECRET], "user-a", secret)).toBeUndefined()
  })
})
