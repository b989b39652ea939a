import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { EmailSignInError } from "../../src/kernel/errors/errors.js"
import { normalizeIdentifier } from "../../src/kernel/mail/address.js"

function reason(value: unknown): unknown {
  try {
    normalizeIdentifier(value)
  } catch (error) {
    expect(error).toBeInstanceOf(EmailSignInError)
    return (error as EmailSignInError).details?.reason
  }
  return undefined
}

describe("normalizeIdentifier", () => {
  it("trims, lower-cases and applies NFKC", () => {
    expect(normalizeIdentifier("  Ann@Example.COM \n")).toBe("ann@example.com")
    // Fullwidth letters and the fullwidth at sign fold to ASCII under NFKC.
    expect(normalizeIdentifier("ＡＮＮ＠ＥＸＡＭＰＬＥ.com")).toBe("ann@example.com")
    expect(normalizeIdentifier("jos\u0065\u0301@example.com")).toBe("jos\u00e9@example.com")
    expect(normalizeIdentifier("user+tag@sub.example.co.uk")).toBe("user+tag@sub.example.co.uk")
  })

  it.each([
    [undefined, "missing"],
    [42, "missing"],
    ["", "empty"],
    ["   ", "empty"],
    ["a@b@example.com", "at-sign"],
    ["example.com", "at-sign"],
    ["@example.com", "local-part"],
    ["ann@", "domain"],
    ["ann@.example.com", "domain"],
    ["ann@example..com", "domain"],
    ["ann@example.com.", "domain"],
    ["ann\u0000@example.com", "control-character"],
    ["ann@exa\u200bmple.com", "control-character"],
    ["ann@example.com\u202e", "control-character"],
    ["an n@example.com", "whitespace"],
    ["ann@example.com\tbob@evil.com", "whitespace"],
    ['"ann"@example.com', "special-character"],
    ["ann@example.com,bob@evil.com", "special-character"],
    ["ann@example.com;bob@evil.com", "special-character"],
    ["ann<bob@evil.com>", "special-character"],
    ["ann@[127.0.0.1]", "special-character"],
    [`${"a".repeat(315)}@b.com`, "too-long"],
    ["a".repeat(5000), "too-long"],
  ])("refuses %j (%s)", (value, expected) => {
    expect(reason(value)).toBe(expected)
  })

  it("accepts exactly 320 characters", () => {
    const email = `${"a".repeat(64)}@${"b".repeat(251)}.com`
    expect(email).toHaveLength(320)
    expect(normalizeIdentifier(email)).toBe(email)
  })

  it("gives messages a person can act on", () => {
    expect(() => normalizeIdentifier("a@b@c")).toThrow(/exactly one "@"/)
    expect(() => normalizeIdentifier("")).toThrow(/Enter your email address/)
    expect(() => normalizeIdentifier("a,b@c.d")).toThrow(/cannot contain ","/)
  })

  const anyInput = fc.oneof(
    fc.string({ unit: "grapheme", maxLength: 40 }),
    fc.string({ unit: "binary", maxLength: 40 }),
    fc
      .tuple(fc.string({ maxLength: 20 }), fc.string({ maxLength: 20 }))
      .map(([a, b]) => `${a}@${b}`),
    fc.emailAddress().map((e) => ` ${e.toUpperCase()} `),
    fc.anything(),
  )

  it("never throws anything but EmailSignInError", () => {
    fc.assert(
      fc.property(anyInput, (value) => {
        try {
          normalizeIdentifier(value)
        } catch (error) {
          return error instanceof EmailSignInError
        }
        return true
      }),
      { numRuns: 2000 },
    )
  })

  it("is idempotent", () => {
    fc.assert(
      fc.property(anyInput, (value) => {
        let once: string
        try {
          once = normalizeIdentifier(value)
        } catch {
          return true
        }
        return normalizeIdentifier(once) === once
      }),
      { numRuns: 2000 },
    )
  })

  it("accepts every address fast-check generates, lower-cased", () => {
    fc.assert(
      fc.property(fc.emailAddress(), (email) => {
        expect(normalizeIdentifier(email)).toBe(email.toLowerCase())
      }),
    )
  })
})
