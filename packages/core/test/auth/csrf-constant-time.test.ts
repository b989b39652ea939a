import { describe, expect, it, vi } from "vitest"

// Spy on the comparison the CSRF module imports: if verification stopped using it (e.g. went
// back to `===`), these calls would disappear and the test fails.
vi.mock("../../src/kernel/crypto/constant-time.js", async (importOriginal) => {
  const mod = await importOriginal<typeof import("../../src/kernel/crypto/constant-time.js")>()
  return { constantTimeEqual: vi.fn(mod.constantTimeEqual) }
})

const { constantTimeEqual } = await import("../../src/kernel/crypto/constant-time.js")
const { createCsrfPair, readCsrfCookie, tokensMatch } = await import(
  "../../src/kernel/csrf/double-submit.js"
)

describe("CSRF comparisons are constant-time", () => {
  it("verifies the cookie HMAC and the submitted token with constantTimeEqual", async () => {
    const secret = "s".repeat(40)
    const pair = await createCsrfPair([secret])
    vi.mocked(constantTimeEqual).mockClear()
    expect(await readCsrfCookie(pair.cookieValue, [secret])).toBe(pair.token)
    expect(constantTimeEqual).toHaveBeenCalledTimes(1)
    expect(tokensMatch(pair.token, pair.token)).toBe(true)
    expect(tokensMatch("x", pair.token)).toBe(false)
    expect(constantTimeEqual).toHaveBeenCalledTimes(3)
  })

  it("constantTimeEqual itself compares every byte", async () => {
    const real = (
      await vi.importActual<typeof import("../../src/kernel/crypto/constant-time.js")>(
        "../../src/kernel/crypto/constant-time.js",
      )
    ).constantTimeEqual
    expect(real(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 3]))).toBe(true)
    expect(real(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 4]))).toBe(false)
    expect(real(new Uint8Array([1, 2]), new Uint8Array([1, 2, 3]))).toBe(false)
  })
})
