import { execFileSync } from "node:child_process"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const bin = fileURLToPath(new URL("../bin/latchkey.mjs", import.meta.url))

describe("latchkey secret", () => {
  it("prints a new 32-byte base64url secret each time", () => {
    const a = execFileSync(process.execPath, [bin, "secret"], { encoding: "utf8" }).trim()
    const b = execFileSync(process.execPath, [bin, "secret"], { encoding: "utf8" }).trim()
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(Buffer.from(a, "base64url")).toHaveLength(32)
    expect(a).not.toBe(b)
  })

  it("fails with usage on an unknown command", () => {
    expect(() => execFileSync(process.execPath, [bin, "nope"], { stdio: "pipe" })).toThrow()
  })
})
