import { execFileSync } from "node:child_process"
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
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

describe("latchkey vite", () => {
  const starter = new URL("../../../e2e/fixtures/starter/vite.config.ts", import.meta.url)

  it("adds the plugin to ./vite.config.ts once, then says it is there", () => {
    const dir = mkdtempSync(join(tmpdir(), "latchkey-bin-"))
    try {
      copyFileSync(starter, join(dir, "vite.config.ts"))
      const first = execFileSync(process.execPath, [bin, "vite"], { cwd: dir, encoding: "utf8" })
      expect(first).toContain("added")
      const config = readFileSync(join(dir, "vite.config.ts"), "utf8")
      expect(config).toContain("plugins: [latchkey(), qwikCity()")
      const again = execFileSync(process.execPath, [bin, "vite"], { cwd: dir, encoding: "utf8" })
      expect(again).toContain("already uses latchkey()")
      expect(readFileSync(join(dir, "vite.config.ts"), "utf8")).toBe(config)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it("fails, printing the line to add, where there is no vite.config.ts", () => {
    const dir = mkdtempSync(join(tmpdir(), "latchkey-bin-"))
    try {
      expect(() =>
        execFileSync(process.execPath, [bin, "vite"], { cwd: dir, stdio: "pipe" }),
      ).toThrow(/import \{ latchkey \} from "@latchkey\/qwik\/vite"/)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
