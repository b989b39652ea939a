import { base64url, CompactEncrypt, compactDecrypt } from "jose"
import { describe, expect, it } from "vitest"
import type { DerivedKey } from "../../src/kernel/token/backend.js"
import { splitCompact } from "../../src/kernel/token/compact.js"
import { jwe as nodeJwe } from "../../src/kernel/token/jwe-node.js"
import { jwe as webJwe } from "../../src/kernel/token/jwe-web.js"

const secret = "a-secret-long-enough-for-the-tests-0123456789"
const salt = "authjs.session-token"
const plaintext = JSON.stringify({ sub: "42", name: "Zoë 🔑" })

describe("the Node (node:crypto) and Web Crypto backends", () => {
  it("derive the same key id for both encodings", async () => {
    for (const enc of ["A256CBC-HS512", "A256GCM"] as const) {
      const a = nodeJwe.deriveKey(secret, salt, enc) as DerivedKey
      const b = await webJwe.deriveKey(secret, salt, enc)
      expect(a.kid).toBe(b.kid)
      expect(a.headerB64).toBe(b.headerB64)
    }
  })

  it("open each other's tokens", async () => {
    const nodeKey = nodeJwe.deriveKey(secret, salt, "A256CBC-HS512") as DerivedKey
    const webKey = await webJwe.deriveKey(secret, salt, "A256CBC-HS512")
    const fromNode = nodeJwe.seal(nodeKey, plaintext) as string
    const fromWeb = await webJwe.seal(webKey, plaintext)
    expect(await webJwe.open(webKey, splitCompact(fromNode)!)).toBe(plaintext)
    expect(nodeJwe.open(nodeKey, splitCompact(fromWeb)!)).toBe(plaintext)
  })

  it("both refuse a token sealed under another salt", async () => {
    const other = nodeJwe.deriveKey(secret, "other", "A256CBC-HS512") as DerivedKey
    const token = nodeJwe.seal(other, plaintext) as string
    const nodeKey = nodeJwe.deriveKey(secret, salt, "A256CBC-HS512") as DerivedKey
    const webKey = await webJwe.deriveKey(secret, salt, "A256CBC-HS512")
    expect(nodeJwe.open(nodeKey, splitCompact(token)!)).toBeNull()
    expect(await webJwe.open(webKey, splitCompact(token)!)).toBeNull()
  })
})

describe("the Web Crypto backend against jose", () => {
  /** The raw key the backend derived, as HKDF gives it (the same bytes on both backends). */
  const rawKey = async (enc: "A256CBC-HS512" | "A256GCM") => {
    const { hkdfSync } = await import("node:crypto")
    const length = enc === "A256GCM" ? 32 : 64
    return new Uint8Array(
      hkdfSync("sha256", secret, salt, `Auth.js Generated Encryption Key (${salt})`, length),
    )
  }

  it("jose opens its A256CBC-HS512 tokens", async () => {
    const key = await webJwe.deriveKey(secret, salt, "A256CBC-HS512")
    const token = await webJwe.seal(key, plaintext)
    const { plaintext: opened, protectedHeader } = await compactDecrypt(
      token,
      await rawKey("A256CBC-HS512"),
    )
    expect(new TextDecoder().decode(opened)).toBe(plaintext)
    expect(protectedHeader).toEqual({ alg: "dir", enc: "A256CBC-HS512", kid: key.kid })
  })

  it.each(["A256CBC-HS512", "A256GCM"] as const)(
    "opens jose's %s tokens, and refuses one with a bit of the ciphertext flipped",
    async (enc) => {
      const key = await webJwe.deriveKey(secret, salt, enc)
      const token = await new CompactEncrypt(new TextEncoder().encode(plaintext))
        .setProtectedHeader({ alg: "dir", enc, kid: key.kid })
        .encrypt(await rawKey(enc))
      expect(await webJwe.open(key, splitCompact(token)!)).toBe(plaintext)
      const [h, k, iv, ciphertext, tag] = token.split(".")
      const bytes = base64url.decode(ciphertext!)
      bytes[0]! ^= 1
      const tampered = [h, k, iv, base64url.encode(bytes), tag].join(".")
      expect(await webJwe.open(key, splitCompact(tampered)!)).toBeNull()
    },
  )
})
