import { compactDecrypt } from "jose"
import { afterEach, describe, expect, it, vi } from "vitest"
import { InvalidParameter, MissingSecret } from "../../src/kernel/errors/errors.js"
import { jwe } from "../../src/kernel/token/jwe-node.js"
import { decode, encode } from "../../src/kernel/token/jwt.js"
import { decodeHeader, deriveKey, SALT, SECRET, sealWithHeader, withHeader } from "./helpers.js"

afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

describe("encode", () => {
  it("makes a compact dir/A256CBC-HS512 JWE with a kid and iat, exp, jti", async () => {
    const token = await encode({ token: { sub: "1", name: "Ada" }, secret: SECRET, salt: SALT })
    const parts = token.split(".")
    expect(parts).toHaveLength(5)
    expect(parts[1]).toBe("")
    const header = decodeHeader(token)
    expect(Object.keys(header)).toEqual(["alg", "enc", "kid"])
    expect(header).toMatchObject({ alg: "dir", enc: "A256CBC-HS512" })
    expect(header.kid).toMatch(/^[A-Za-z0-9_-]{86}$/) // SHA-512 thumbprint
    const payload = await decode({ token, secret: SECRET, salt: SALT })
    expect(payload).toMatchObject({ sub: "1", name: "Ada" })
    expect(payload!.exp! - payload!.iat!).toBe(2592000)
    expect(payload!.jti).toMatch(/^[0-9a-f-]{36}$/)
  })

  it("defaults the token to {} and honours maxAge", async () => {
    const token = await encode({ secret: SECRET, salt: SALT, maxAge: 60 })
    const payload = await decode({ token, secret: SECRET, salt: SALT })
    expect(Object.keys(payload!).sort()).toEqual(["exp", "iat", "jti"])
    expect(payload!.exp! - payload!.iat!).toBe(60)
  })

  it("keeps whole seconds past 2038 (no 32-bit truncation)", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(new Date("2040-01-01T00:00:00Z"))
    const token = await encode({ secret: SECRET, salt: SALT, maxAge: 10 })
    const payload = await decode({ token, secret: SECRET, salt: SALT })
    expect(payload!.iat).toBe(Date.UTC(2040, 0, 1) / 1000)
  })

  it("encrypts with the first secret of an array", async () => {
    const token = await encode({ secret: ["new-secret", SECRET], salt: SALT })
    expect(await decode({ token, secret: "new-secret", salt: SALT })).not.toBeNull()
    expect(await decode({ token, secret: SECRET, salt: SALT })).toBeNull()
  })

  it("accepts a negative maxAge and mints an already-expired token, as Auth.js does", async () => {
    const token = await encode({ token: { sub: "1" }, secret: SECRET, salt: SALT, maxAge: -3600 })
    expect(await decode({ token, secret: SECRET, salt: SALT })).toBeNull()
    const { plaintext } = await compactDecrypt(token, await deriveKey(SECRET, SALT))
    const payload = JSON.parse(new TextDecoder().decode(plaintext)) as { iat: number; exp: number }
    expect(payload.exp - payload.iat).toBe(-3600)
  })

  it("rejects bad parameters with a typed error naming the parameter", async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ secret: SECRET, salt: 42 }, "salt"],
      [{ secret: SECRET, salt: undefined }, "salt"],
      [{ secret: SECRET, salt: SALT, maxAge: Number.NaN }, "maxAge"],
      [{ secret: SECRET, salt: SALT, maxAge: Number.POSITIVE_INFINITY }, "maxAge"],
      [{ secret: SECRET, salt: SALT, maxAge: "60" }, "maxAge"],
      [{ secret: [], salt: SALT }, "secret"],
      [{ secret: ["ok", ""], salt: SALT }, "secret"],
      [{ secret: SECRET, salt: SALT, token: [] }, "token"],
      [{ secret: SECRET, salt: SALT, token: null }, "token"],
    ]
    for (const [params, parameter] of cases) {
      const error = await encode(params as never).catch((e: unknown) => e)
      expect(error, JSON.stringify(params)).toBeInstanceOf(InvalidParameter)
      expect((error as InvalidParameter).parameter).toBe(parameter)
    }
    await expect(encode({ secret: "", salt: SALT })).rejects.toBeInstanceOf(MissingSecret)
    await expect(decode({ token: "x", secret: [], salt: SALT })).rejects.toBeInstanceOf(
      InvalidParameter,
    )
    await expect(decode({ token: "x", salt: 1 as never, secret: SECRET })).rejects.toBeInstanceOf(
      InvalidParameter,
    )
  })
})

describe("decode", () => {
  const make = (token: Record<string, unknown> = { sub: "1" }, maxAge?: number) =>
    encode({ token, secret: SECRET, salt: SALT, ...(maxAge === undefined ? {} : { maxAge }) })

  it("returns null for every kind of bad token, never throwing", async () => {
    const good = await make()
    const [h, , iv, c, t] = good.split(".") as [string, string, string, string, string]
    const bad: unknown[] = [
      undefined,
      null,
      "",
      42,
      {},
      "not a token",
      "a.b.c",
      "a.b.c.d.e.f",
      `${h}.x.${iv}.${c}.${t}`, // encrypted key present
      `${h}..${iv}.${c}.${t}=`, // padding
      `${h}..${iv}.${c}.${t.slice(0, -1)}!`, // not base64url
      `${h}..${iv}..${t}`, // empty ciphertext
      `${h}..${iv}.${c}.${t.slice(0, -2)}`, // short tag
      withHeader(good, { alg: "dir", enc: "A256CBC-HS512" }), // header swapped: tag fails
      withHeader(good, { alg: "none", enc: "A256CBC-HS512" }),
      withHeader(good, { alg: "A256KW", enc: "A256CBC-HS512" }),
      withHeader(good, { alg: "dir", enc: "A128CBC-HS256" }),
      withHeader(good, { alg: "dir", enc: "A256GCM", zip: "DEF" }),
      withHeader(good, { alg: "dir", enc: "A256CBC-HS512", crit: ["exp"] }),
      withHeader(good, { alg: "dir", enc: "A256CBC-HS512", kid: 7 }),
      "x".repeat(300_000),
    ]
    for (const token of bad) {
      await expect(decode({ token: token as string, secret: SECRET, salt: SALT })).resolves.toBe(
        null,
      )
    }
  })

  it.each([
    ["jwk", { kty: "oct", k: "AAAA" }],
    ["jku", "https://attacker.example/keys"],
    ["x5u", "https://attacker.example/cert"],
    ["x5c", ["MIIB"]],
    ["x5t", "AAAA"],
    ["x5t#S256", "AAAA"],
  ])("refuses a correctly sealed token whose header carries %s", async (name, value) => {
    const claims = { sub: "1", exp: Math.floor(Date.now() / 1000) + 60 }
    const plain = await sealWithHeader(claims, {})
    expect(await decode({ token: plain, secret: SECRET, salt: SALT })).toMatchObject({ sub: "1" })
    const token = await sealWithHeader(claims, { [name]: value })
    expect(await decode({ token, secret: SECRET, salt: SALT })).toBeNull()
  })

  it("returns null for a wrong secret, a rotated-out secret or a wrong salt", async () => {
    const token = await make()
    expect(await decode({ token, secret: "wrong-secret", salt: SALT })).toBeNull()
    expect(await decode({ token, secret: ["a", "b"], salt: SALT })).toBeNull()
    expect(await decode({ token, secret: SECRET, salt: `__Secure-${SALT}` })).toBeNull()
  })

  it("accepts an expired token only within the 15 s clock tolerance", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(new Date("2030-01-01T00:00:00Z"))
    const token = await make({ sub: "1" }, 60)
    vi.setSystemTime(new Date("2030-01-01T00:01:14Z")) // exp + 14 s
    expect(await decode({ token, secret: SECRET, salt: SALT })).not.toBeNull()
    vi.setSystemTime(new Date("2030-01-01T00:01:16Z")) // exp + 16 s
    expect(await decode({ token, secret: SECRET, salt: SALT })).toBeNull()
  })

  it("refuses nbf in the future and non-numeric time claims", async () => {
    const now = Math.floor(Date.now() / 1000)
    expect(await decode({ token: await make({ nbf: now + 60 }), secret: SECRET, salt: SALT })).toBe(
      null,
    )
    expect(
      await decode({ token: await make({ nbf: now + 10 }), secret: SECRET, salt: SALT }),
    ).not.toBeNull()
    expect(await decode({ token: await make({ nbf: "soon" }), secret: SECRET, salt: SALT })).toBe(
      null,
    )
  })

  it("picks the secret by kid without trial decryption", async () => {
    const token = await make()
    const open = vi.spyOn(jwe, "open")
    const payload = await decode({ token, secret: ["old-1", "old-2", SECRET], salt: SALT })
    expect(payload).not.toBeNull()
    expect(open).toHaveBeenCalledTimes(1)
  })

  it("tries each secret in order for a token without kid", async () => {
    const { CompactEncrypt } = await import("jose")
    const { hkdfSync } = await import("node:crypto")
    const key = new Uint8Array(
      hkdfSync("sha256", SECRET, SALT, `Auth.js Generated Encryption Key (${SALT})`, 64),
    )
    const now = Math.floor(Date.now() / 1000)
    const token = await new CompactEncrypt(
      new TextEncoder().encode(JSON.stringify({ sub: "no-kid", exp: now + 60 })),
    )
      .setProtectedHeader({ alg: "dir", enc: "A256CBC-HS512" })
      .encrypt(key)
    const payload = await decode({ token, secret: ["rotated-in", SECRET], salt: SALT })
    expect(payload?.sub).toBe("no-kid")
  })

  it("refuses a payload that is not a JSON object", async () => {
    const { CompactEncrypt } = await import("jose")
    const { hkdfSync } = await import("node:crypto")
    const key = new Uint8Array(
      hkdfSync("sha256", SECRET, SALT, `Auth.js Generated Encryption Key (${SALT})`, 64),
    )
    for (const body of ["[1,2]", "null", '"text"', "12", "{not json", "\xff"]) {
      const token = await new CompactEncrypt(new TextEncoder().encode(body))
        .setProtectedHeader({ alg: "dir", enc: "A256CBC-HS512" })
        .encrypt(key)
      expect(await decode({ token, secret: SECRET, salt: SALT })).toBeNull()
    }
  })
})
