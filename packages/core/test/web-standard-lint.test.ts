/**
 * The web-standard lint rule (biome.web-standard.jsonc) is active: files planted in a copy of
 * the repository's layout, linted with the repository's own Biome config, get an error for each
 * Node-only global or module, except in the files listed as Node-only on purpose.
 */
import { execFile } from "node:child_process"
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { builtinModules } from "node:module"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { afterAll, beforeAll, describe, expect, it } from "vitest"

const run = promisify(execFile)
const root = fileURLToPath(new URL("../../..", import.meta.url))
const biome = join(root, "node_modules/.bin/biome")

interface Diagnostic {
  category: string
  message: string
  location: { path: string; start: { line: number } }
}

let dir: string

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), "latchkey-lint-"))
  for (const file of ["biome.json", "biome.web-standard.jsonc"]) {
    cpSync(join(root, file), join(dir, file))
  }
})

afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Write `files` (path → source) into the scratch tree and lint exactly those. */
async function lint(files: Record<string, string>): Promise<Diagnostic[]> {
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(dir, path)), { recursive: true })
    writeFileSync(join(dir, path), source)
  }
  const args = ["lint", "--vcs-enabled=false", "--reporter=json", "--max-diagnostics=none"]
  const { stdout } = await run(biome, [...args, ...Object.keys(files)], { cwd: dir }).catch(
    (error: { stdout: string }) => error, // exit code 1 when there are errors: read them anyway
  )
  const report = JSON.parse(stdout) as { diagnostics: Diagnostic[] }
  return report.diagnostics.filter((d) => d.category.startsWith("lint/style/noRestricted"))
}

const PLANTED = [
  'export const bytes = Buffer.from("planted").toString("base64url")',
  "export const secret = process.env.AUTH_SECRET",
  'export const fs = () => import("node:fs/promises")',
  'export { createHash } from "node:crypto"',
  'import { join } from "path"',
  "export const joined = join",
].join("\n")

describe("the web-standard lint rule", () => {
  it.each([
    "packages/core/src/kernel/rate-limit/planted.ts",
    "packages/qwik/src/planted.ts",
    "packages/store-redis/src/planted.ts",
    "packages/adapter-postgres/src/planted.ts",
  ])("refuses Buffer, process and Node modules in %s", async (path) => {
    const found = await lint({ [path]: PLANTED })
    expect(found.map((d) => [d.category, d.location.start.line])).toEqual(
      expect.arrayContaining([
        ["lint/style/noRestrictedGlobals", 1],
        ["lint/style/noRestrictedGlobals", 2],
        ["lint/style/noRestrictedImports", 3],
        ["lint/style/noRestrictedImports", 4],
        ["lint/style/noRestrictedImports", 5],
      ]),
    )
    expect(found).toHaveLength(5)
  })

  it("refuses every one of Node's built-in modules, with and without node:", async () => {
    const names = builtinModules.filter((name) => !name.startsWith("_"))
    const source = names
      .flatMap((name, i) => [
        `import * as a${i} from "${name}"`,
        `import * as b${i} from "node:${name}"`,
      ])
      .join("\n")
    const found = await lint({ "packages/core/src/all-builtins.ts": source })
    const refused = new Set(found.map((d) => d.location.start.line))
    const missed = names.filter((_, i) => !refused.has(2 * i + 1) || !refused.has(2 * i + 2))
    expect(missed).toEqual([])
  })

  it("allows the guarded environment read, and web APIs", async () => {
    const source = [
      "export const env = (globalThis as { process?: { env?: object } }).process?.env ?? {}",
      'export const digest = crypto.subtle.digest("SHA-256", new TextEncoder().encode("x"))',
      "export const b64 = btoa(String.fromCharCode(...new Uint8Array([1, 2])))",
    ].join("\n")
    expect(await lint({ "packages/core/src/web.ts": source })).toEqual([])
  })

  it("lets the listed Node-only files (and code outside the packages' src) use Node", async () => {
    const found = await lint({
      "packages/core/src/kernel/token/jwe-node.ts": PLANTED,
      "packages/adapter-postgres/src/migrate.ts": PLANTED,
      "packages/qwik/bin/planted.ts": PLANTED,
      "packages/core/test/planted.test.ts": PLANTED,
    })
    expect(found).toEqual([])
  })
})
