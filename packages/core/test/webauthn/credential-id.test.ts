/** Credential ids between the browser (base64url) and the Auth.js rows (standard base64, padded). */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  fromStoredCredentialId,
  publicKeyFromStored,
  publicKeyToStored,
  toStoredCredentialId,
  toTransports,
  transportsToStored,
} from "../../src/features/passkey/credential-id.js"

const bytes = fc.uint8Array({ minLength: 1, maxLength: 1023 })

describe("credential ids", () => {
  it("any id the browser sends is stored as Node's standard base64 of the same bytes, and back", () => {
    fc.assert(
      fc.property(bytes, (raw) => {
        const fromBrowser = Buffer.from(raw).toString("base64url")
        const stored = toStoredCredentialId(fromBrowser)
        expect(stored).toBe(Buffer.from(raw).toString("base64"))
        expect(fromStoredCredentialId(stored!)).toBe(fromBrowser)
      }),
    )
  })

  it("never throws on hostile input; anything that is not base64url (or too long) is null", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: "binary" }), fc.anything()), (value) => {
        const stored = toStoredCredentialId(value)
        if (stored !== null) {
          expect(typeof value).toBe("string")
          expect(value as string).toMatch(/^[A-Za-z0-9_-]+$/)
          expect(fromStoredCredentialId(stored)).toBe(value)
        }
      }),
    )
    expect(toStoredCredentialId("")).toBeNull()
    expect(toStoredCredentialId("=")).toBeNull()
    expect(toStoredCredentialId("AA==")).toBeNull() // padded: not what browsers send
    expect(toStoredCredentialId("AB")).toBeNull() // non-canonical spelling of "AA"
    expect(toStoredCredentialId("AA")).toBe("AA==")
    expect(toStoredCredentialId("a+b/")).toBeNull()
    expect(toStoredCredentialId("A".repeat(1365))).toBeNull()
  })

  it("public keys round-trip through standard base64; transports through a comma list", () => {
    fc.assert(
      fc.property(bytes, (key) => {
        const stored = publicKeyToStored(key)
        expect(stored).toBe(Buffer.from(key).toString("base64"))
        expect([...publicKeyFromStored(stored)]).toEqual([...key])
      }),
    )
    expect(transportsToStored(["hybrid", "internal"])).toBe("hybrid,internal")
    expect(transportsToStored([])).toBeNull()
    expect(toTransports("hybrid,internal")).toEqual(["hybrid", "internal"])
    expect(toTransports(null)).toEqual([])
  })
})
