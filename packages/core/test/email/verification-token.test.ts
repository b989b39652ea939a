import { createHash } from "node:crypto"
import { describe, expect, it } from "vitest"
import {
  generateVerificationToken,
  hashVerificationToken,
  secretList,
  storedTokenEquals,
} from "../../src/kernel/grants/link-token.js"

describe("verification tokens", () => {
  it("are 32 random bytes, base64url (43 characters), unique", () => {
    const tokens = new Set(Array.from({ length: 1000 }, generateVerificationToken))
    expect(tokens.size).toBe(1000)
    for (const t of tokens) expect(t).toMatch(/^[A-Za-z0-9_-]{43}$/)
  })

  it("are stored as a keyed HMAC: deterministic, per secret, not Auth.js's sha256(token+secret)", async () => {
    const a = await hashVerificationToken("token", "secret-one")
    expect(a).toMatch(/^[0-9a-f]{64}$/)
    expect(await hashVerificationToken("token", "secret-one")).toBe(a)
    expect(await hashVerificationToken("token", "secret-two")).not.toBe(a)
    expect(await hashVerificationToken("token2", "secret-one")).not.toBe(a)
    expect(a).not.toBe(createHash("sha256").update("tokensecret-one").digest("hex"))
  })

  it("matches HMAC-SHA-256 under the HKDF-derived key", async () => {
    const enc = new TextEncoder()
    const ikm = await crypto.subtle.importKey("raw", enc.encode("s3cret"), "HKDF", false, [
      "deriveKey",
    ])
    const key = await crypto.subtle.deriveKey(
      {
        name: "HKDF",
        hash: "SHA-256",
        salt: new Uint8Array(0),
        info: enc.encode("Latchkey email verification token"),
      },
      ikm,
      { name: "HMAC", hash: "SHA-256", length: 256 },
      false,
      ["sign"],
    )
    const mac = new Uint8Array(await crypto.subtle.sign("HMAC", key, enc.encode("tok")))
    expect(await hashVerificationToken("tok", "s3cret")).toBe(Buffer.from(mac).toString("hex"))
  })

  it("secretList keeps order and drops empty values", () => {
    expect(secretList("a")).toEqual(["a"])
    expect(secretList(["new", "", "old"])).toEqual(["new", "old"])
    expect(secretList(undefined)).toEqual([])
  })

  it("storedTokenEquals compares exactly", () => {
    expect(storedTokenEquals("abc", "abc")).toBe(true)
    expect(storedTokenEquals("abc", "abd")).toBe(false)
    expect(storedTokenEquals("abc", "abcd")).toBe(false)
  })
})
