import { describe, expect, it } from "vitest"
import type { DerivedKey } from "../../src/lib/token/backend.js"
import { splitCompact } from "../../src/lib/token/compact.js"
import { jwe as nodeJwe } from "../../src/lib/token/jwe-node.js"
import { jwe as webJwe } from "../../src/lib/token/jwe-web.js"

const secret = "a-secret-long-enough-for-the-tests-0123456789"
const salt = "authjs.session-token"
const plaintext = JSON.stringify({ sub: "42", name: "Zoë 🔑" })

describe("the Node (node:crypto) and WebCrypto (jose) backends", () => {
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
