/** The password policy (NIST SP 800-63B): length, byte bound, NFKC, common list, breach hook. */
import { describe, expect, it } from "vitest"
import {
  checkNewPassword,
  isCommonPassword,
  normalisePassword,
  resolvePolicy,
} from "../../src/features/password/policy.js"
import { PasswordRejected } from "../../src/kernel/errors/errors.js"

async function reason(value: unknown, options = {}) {
  try {
    await checkNewPassword(value, resolvePolicy(options))
    return "accepted"
  } catch (error) {
    expect(error).toBeInstanceOf(PasswordRejected)
    return (error as PasswordRejected).details!.reason
  }
}

describe("password policy", () => {
  it("refuses fewer than 8 characters (configurable upwards, never below 8)", async () => {
    expect(await reason("abcdefg")).toBe("too-short")
    expect(await reason("zq-ka-vu")).toBe("accepted")
    expect(await reason("zq-ka-vu-xy", { minLength: 12 })).toBe("too-short")
    expect(resolvePolicy({ minLength: 4 }).minLength).toBe(8)
    expect(await reason("")).toBe("missing")
    expect(await reason(12345678)).toBe("missing")
  })

  it("counts characters, not UTF-16 units or bytes, and accepts 64 of any script", async () => {
    expect(await reason("𝄞".repeat(7))).toBe("too-short")
    expect(await reason("𝄞".repeat(64))).toBe("accepted")
    expect(await reason("密".repeat(64))).toBe("accepted")
  })

  it("refuses over the byte bound before normalising a huge value", async () => {
    expect(await reason("a".repeat(1025))).toBe("too-long")
    expect(await reason("é".repeat(513))).toBe("too-long")
    expect(normalisePassword("x".repeat(2_000_000), 1024)).toBeNull()
    expect(resolvePolicy({ maxBytes: 10 }).maxBytes).toBe(256)
  })

  it("normalises to NFKC: decomposed accents, ligatures and full-width letters", async () => {
    const nfd = "cafe\u0301-crème"
    expect(await checkNewPassword(nfd, resolvePolicy())).toBe(nfd.normalize("NFC"))
    expect(await checkNewPassword("\uFB01ne-ｃｒèｍｅ-２", resolvePolicy())).toBe("fine-crème-2")
  })

  it("refuses common passwords (zxcvbn-ts common list), whatever their case", async () => {
    expect(await isCommonPassword("password")).toBe(true)
    expect(await reason("Password123")).toBe("common")
    expect(await reason("qwertyuiop")).toBe("common")
    expect(await reason("tangerine-orbit-cabinet")).toBe("accepted")
    expect(await reason("Password123", { refuseCommon: false })).toBe("accepted")
  })

  it("calls the breached-password hook last, and refuses what it flags", async () => {
    const seen: string[] = []
    const isBreached = (p: string) => {
      seen.push(p)
      return p === "tangerine-orbit-cabinet"
    }
    expect(await reason("tangerine-orbit-cabinet", { isBreached })).toBe("breached")
    expect(await reason("short", { isBreached })).toBe("too-short")
    expect(seen).toEqual(["tangerine-orbit-cabinet"])
  })

  it("says what to do in each refusal", async () => {
    await expect(checkNewPassword("short", resolvePolicy())).rejects.toThrow(
      /at least 8 characters/,
    )
    await expect(checkNewPassword("password", resolvePolicy())).rejects.toThrow(/most common/)
  })
})
