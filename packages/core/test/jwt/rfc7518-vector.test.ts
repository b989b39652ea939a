import { createSecretKey } from "node:crypto"
import { describe, expect, it } from "vitest"
import { decryptCbcHs512, encryptCbcHs512 } from "../../src/kernel/token/jwe-node.js"
import * as web from "../../src/kernel/token/jwe-web.js"

// RFC 7518 Appendix B.3: AES_256_CBC_HMAC_SHA_512.
const hex = (s: string) => Buffer.from(s.replace(/\s+/g, ""), "hex")
const K = Buffer.from(Array.from({ length: 64 }, (_, i) => i))
const P = hex(`41 20 63 69 70 68 65 72 20 73 79 73 74 65 6d 20 6d 75 73 74 20 6e 6f 74 20 62 65 20
  72 65 71 75 69 72 65 64 20 74 6f 20 62 65 20 73 65 63 72 65 74 2c 20 61 6e 64 20 69 74 20 6d 75
  73 74 20 62 65 20 61 62 6c 65 20 74 6f 20 66 61 6c 6c 20 69 6e 74 6f 20 74 68 65 20 68 61 6e 64
  73 20 6f 66 20 74 68 65 20 65 6e 65 6d 79 20 77 69 74 68 6f 75 74 20 69 6e 63 6f 6e 76 65 6e 69
  65 6e 63 65`)
const IV = hex("1a f3 8c 2d c2 b9 6f fd d8 66 94 09 23 41 bc 04")
const A = hex(`54 68 65 20 73 65 63 6f 6e 64 20 70 72 69 6e 63 69 70 6c 65 20 6f 66 20 41 75 67 75
  73 74 65 20 4b 65 72 63 6b 68 6f 66 66 73`)
const E = hex(`4a ff aa ad b7 8c 31 c5 da 4b 1b 59 0d 10 ff bd 3d d8 d5 d3 02 42 35 26 91 2d a0 37
  ec bc c7 bd 82 2c 30 1d d6 7c 37 3b cc b5 84 ad 3e 92 79 c2 e6 d1 2a 13 74 b7 7f 07 75 53 df 82
  94 10 44 6b 36 eb d9 70 66 29 6a e6 42 7e a7 5c 2e 08 46 a1 1a 09 cc f5 37 0d c8 0b fe cb ad 28
  c7 3f 09 b3 a3 b7 5e 66 2a 25 94 41 0a e4 96 b2 e2 e6 60 9e 31 e6 e0 2c c8 37 f0 53 d2 1f 37 ff
  4f 51 95 0b be 26 38 d0 9d d7 a4 93 09 30 80 6d 07 03 b1 f6`)
const T = hex(`4d d3 b4 c0 88 a7 f4 5c 21 68 39 64 5b 20 12 bf 2e 62 69 a8 c5 6a 81 6d bc 1b 26 77
  61 95 5b c5`)

const mac = createSecretKey(K.subarray(0, 32))
const cipher = createSecretKey(K.subarray(32))

describe("A256CBC-HS512 against RFC 7518 Appendix B.3", () => {
  it("encrypts to the published ciphertext E and tag T", () => {
    const { ciphertext, tag } = encryptCbcHs512(mac, cipher, IV, P, A)
    expect(ciphertext.toString("hex")).toBe(E.toString("hex"))
    expect(tag.toString("hex")).toBe(T.toString("hex"))
  })

  it("decrypts E back to P", () => {
    expect(decryptCbcHs512(mac, cipher, IV, E, T, A)?.toString("hex")).toBe(P.toString("hex"))
  })

  it("refuses a tag, IV, ciphertext or AAD that differs in one bit", () => {
    const flip = (b: Buffer, i: number) => {
      const c = Buffer.from(b)
      c[i]! ^= 1
      return c
    }
    expect(decryptCbcHs512(mac, cipher, IV, E, flip(T, 31), A)).toBeNull()
    expect(decryptCbcHs512(mac, cipher, flip(IV, 0), E, T, A)).toBeNull()
    expect(decryptCbcHs512(mac, cipher, IV, flip(E, 100), T, A)).toBeNull()
    expect(decryptCbcHs512(mac, cipher, IV, E, T, flip(A, 3))).toBeNull()
    expect(decryptCbcHs512(mac, cipher, IV, E, T.subarray(0, 16), A)).toBeNull()
  })
})

describe("A256CBC-HS512 on Web Crypto (jwe-web.ts) against RFC 7518 Appendix B.3", () => {
  const bytes = (b: Buffer) => new Uint8Array(b)
  const keys = async () => ({
    webMac: await crypto.subtle.importKey(
      "raw",
      bytes(K.subarray(0, 32)),
      { name: "HMAC", hash: "SHA-512" },
      false,
      ["sign"],
    ),
    webCipher: await crypto.subtle.importKey("raw", bytes(K.subarray(32)), "AES-CBC", false, [
      "encrypt",
      "decrypt",
    ]),
  })
  const hexOf = (b: Uint8Array | null | undefined) => b && Buffer.from(b).toString("hex")

  it("encrypts to the published ciphertext E and tag T", async () => {
    const { webMac, webCipher } = await keys()
    const sealed = await web.encryptCbcHs512(webMac, webCipher, bytes(IV), bytes(P), bytes(A))
    expect(hexOf(sealed.ciphertext)).toBe(E.toString("hex"))
    expect(hexOf(sealed.tag)).toBe(T.toString("hex"))
  })

  it("decrypts E back to P, and refuses a tag, IV, ciphertext or AAD that differs in one bit", async () => {
    const { webMac, webCipher } = await keys()
    const open = (iv: Buffer, e: Buffer, t: Buffer, a: Buffer) =>
      web.decryptCbcHs512(webMac, webCipher, bytes(iv), bytes(e), bytes(t), bytes(a))
    const flip = (b: Buffer, i: number) => {
      const c = Buffer.from(b)
      c[i]! ^= 1
      return c
    }
    expect(hexOf(await open(IV, E, T, A))).toBe(P.toString("hex"))
    expect(await open(IV, E, flip(T, 31), A)).toBeNull()
    expect(await open(flip(IV, 0), E, T, A)).toBeNull()
    expect(await open(IV, flip(E, 100), T, A)).toBeNull()
    expect(await open(IV, E, T, flip(A, 3))).toBeNull()
    expect(await open(IV, E, T.subarray(0, 16), A)).toBeNull()
  })
})
