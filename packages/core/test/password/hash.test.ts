/** The password hasher: formats, cross-algorithm verification, upgrades, runtime fallback. */
import bcrypt from "bcryptjs"
import { afterEach, describe, expect, it, vi } from "vitest"
import {
  canCompileWasm,
  createPasswordHasher,
  OWASP_ARGON2ID,
  parseArgon2,
  parsePbkdf2,
} from "../../src/features/password/hash.js"

afterEach(() => vi.restoreAllMocks())

describe("argon2id (hash-wasm)", () => {
  it("makes OWASP-parameter PHC strings that verify, and refuses a wrong password", async () => {
    const hasher = createPasswordHasher({ algorithm: "argon2id" })
    const hash = await hasher.hash("correct horse")
    expect(hash).toMatch(
      /^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/,
    )
    expect(parseArgon2(hash)).toEqual({ m: OWASP_ARGON2ID.memorySize, t: 2, p: 1 })
    expect(await hasher.verify(hash, "correct horse")).toBe(true)
    expect(await hasher.verify(hash, "correct horsf")).toBe(false)
    expect(await hasher.needsRehash(hash)).toBe(false)
    // Salted: the same password hashes differently each time.
    expect(await hasher.hash("correct horse")).not.toBe(hash)
  })

  it("flags a hash made with other parameters for an upgrade, and still verifies it", async () => {
    const weak = createPasswordHasher({
      algorithm: "argon2id",
      argon2: { memorySize: 1024, iterations: 1 },
    })
    const hash = await weak.hash("correct horse")
    const current = createPasswordHasher({ algorithm: "argon2id" })
    expect(await current.verify(hash, "correct horse")).toBe(true)
    expect(await current.needsRehash(hash)).toBe(true)
  })
})

describe("PBKDF2-SHA-256 (WebCrypto)", () => {
  it("makes $pbkdf2-sha256$ strings that any hasher verifies, and upgrades them on an argon2id runtime", async () => {
    const pbkdf2 = createPasswordHasher({ algorithm: "pbkdf2-sha256", pbkdf2Iterations: 2000 })
    const hash = await pbkdf2.hash("correct horse")
    expect(hash).toMatch(/^\$pbkdf2-sha256\$i=2000\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/)
    expect(parsePbkdf2(hash)!.iterations).toBe(2000)
    expect(await pbkdf2.verify(hash, "correct horse")).toBe(true)
    expect(await pbkdf2.verify(hash, "correct horsf")).toBe(false)
    const argon = createPasswordHasher({ algorithm: "argon2id" })
    expect(await argon.verify(hash, "correct horse")).toBe(true)
    expect(await argon.needsRehash(hash)).toBe(true)
    expect(await createPasswordHasher({ algorithm: "pbkdf2-sha256" }).needsRehash(hash)).toBe(true)
  })

  it("defaults to OWASP's 600,000 iterations", async () => {
    const hash = await createPasswordHasher({ algorithm: "pbkdf2-sha256" }).hash("x")
    expect(hash).toMatch(/^\$pbkdf2-sha256\$i=600000\$/)
  })
})

describe("runtime choice", () => {
  it("auto picks argon2id where WebAssembly compiles (Node)", async () => {
    expect(await canCompileWasm()).toBe(true)
    const hash = await createPasswordHasher({ argon2: { memorySize: 1024, iterations: 1 } }).hash(
      "x",
    )
    expect(hash.startsWith("$argon2id$")).toBe(true)
  })

  it("auto falls back to PBKDF2 where WebAssembly cannot be compiled (workerd, Vercel Edge)", async () => {
    vi.spyOn(WebAssembly, "compile").mockRejectedValue(
      new Error("WebAssembly.compile(): Wasm code generation disallowed by embedder"),
    )
    expect(await canCompileWasm()).toBe(false)
    const hasher = createPasswordHasher({ pbkdf2Iterations: 1000 })
    const hash = await hasher.hash("x")
    expect(hash.startsWith("$pbkdf2-sha256$i=1000$")).toBe(true)
    expect(await hasher.verify(hash, "x")).toBe(true)
  })
})

describe("imported and damaged hashes", () => {
  it("verifies bcrypt ($2a$, $2b$, $2y$) and always asks for an upgrade", async () => {
    const hasher = createPasswordHasher({ algorithm: "pbkdf2-sha256", pbkdf2Iterations: 1000 })
    const b = bcrypt.hashSync("legacy", 4)
    for (const prefix of ["$2a$", "$2b$", "$2y$"]) {
      const hash = prefix + b.slice(4)
      expect(await hasher.verify(hash, "legacy")).toBe(true)
      expect(await hasher.verify(hash, "legacz")).toBe(false)
      expect(await hasher.needsRehash(hash)).toBe(true)
    }
  })

  it("answers false, never throws, for a hash it cannot read", async () => {
    const hasher = createPasswordHasher({ algorithm: "pbkdf2-sha256", pbkdf2Iterations: 1000 })
    for (const junk of [
      "",
      "plain",
      "$argon2id$v=19$m=1,t=1,p=1$$",
      "$pbkdf2-sha256$i=0$AA$AA",
      "$pbkdf2-sha256$i=10$!!$AA",
      "$md5$x",
    ]) {
      expect(await hasher.verify(junk, "x")).toBe(false)
    }
  })
})
