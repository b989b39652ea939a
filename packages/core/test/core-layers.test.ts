/**
 * The folder check of the core (scripts/check-core-layers.mjs) catches each rule it states: a
 * scratch tree in the kernel/features layout passes, then one planted import per rule fails it,
 * through every kind of import the compiler follows (`import type`, `export … from`,
 * `import("…")` in a type). Before the layout exists the same finding is a warning.
 */
import { execFile } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { tmpdir } from "node:os"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { afterAll, describe, expect, it } from "vitest"

const run = promisify(execFile)
const root = fileURLToPath(new URL("../../..", import.meta.url))
const script = join(root, "scripts/check-core-layers.mjs")

/** A core in the new layout whose folders import only downwards (a feature its own subfolder too). */
const CLEAN: Record<string, string> = {
  "index.ts":
    'export { handle } from "./kernel/handle.js"\nexport type { Grant } from "./kernel/grants/grant.js"',
  "kernel/handle.ts":
    'import type { Grant } from "./grants/grant.js"\nexport const handle = (grant: Grant) => grant.id',
  "kernel/grants/grant.ts": "export interface Grant { id: string }",
  "features/oauth/index.ts":
    'import type { Grant } from "../../kernel/grants/grant.js"\nimport { callback } from "./callback/run.js"\nexport const oauth = (grant: Grant) => callback(grant)',
  "features/oauth/callback/run.ts":
    'import type { Grant } from "../../../kernel/grants/grant.js"\nexport const callback = (grant: Grant) => grant.id',
  "features/email/index.ts": 'export { handle as email } from "../../kernel/handle.js"',
  "providers/github.ts": 'export { oauth as default } from "../features/oauth/index.js"',
}

const TSCONFIG = JSON.stringify({
  compilerOptions: {
    module: "nodenext",
    moduleResolution: "nodenext",
    strict: true,
    noEmit: true,
    types: [],
  },
  include: ["src"],
})

const scratch: string[] = []
afterAll(() => {
  for (const dir of scratch) rmSync(dir, { recursive: true, force: true })
})

/** Write the clean tree with `planted` files (path under src → source) and run the check on it. */
async function check(planted: Record<string, string>, { layout = true, strict = false } = {}) {
  const dir = mkdtempSync(join(tmpdir(), "latchkey-layers-"))
  scratch.push(dir)
  writeFileSync(join(dir, "tsconfig.json"), TSCONFIG)
  const files = { ...CLEAN, ...planted }
  for (const [path, source] of Object.entries(files)) {
    const to = layout ? path : path.replace(/^kernel\//, "lib/")
    mkdirSync(dirname(join(dir, "src", to)), { recursive: true })
    writeFileSync(
      join(dir, "src", to),
      source.replaceAll("/kernel/", layout ? "/kernel/" : "/lib/"),
    )
  }
  const args = [script, "--project", join(dir, "tsconfig.json"), "--source", join(dir, "src")]
  if (strict) args.push("--strict")
  const result = await run(process.execPath, args).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  )
  return { code: result.code, output: `${result.stdout}${result.stderr}` }
}

/** Two kernel folders that import each other: a type-only import one way, `export type … from` back. */
const PAIR: Record<string, string> = {
  "kernel/grants/grant.ts":
    'import type { Cookie } from "../cookies/cookie.js"\nexport interface Grant { id: string; cookie?: Cookie }',
  "kernel/cookies/cookie.ts":
    'export type { Grant as Bound } from "../grants/grant.js"\nexport interface Cookie { name: string }',
}

/** One planted file per layer rule: what it breaks, the rule's heading, and the import named. */
const LAYER_CASES: [string, Record<string, string>, string, string][] = [
  [
    "the kernel importing a feature, through import() in a type",
    {
      "kernel/handle.ts":
        'import type { Grant } from "./grants/grant.js"\nexport const handle = (grant: Grant): ReturnType<typeof import("../features/email/index.js").email> => grant.id',
    },
    "the kernel imports a feature (kernel/ → features/)",
    "kernel/handle.ts → features/email/index.ts",
  ],
  [
    "the kernel importing a provider",
    { "kernel/providers.ts": 'export { default as github } from "../providers/github.js"' },
    "the kernel imports a provider (kernel/ → providers/)",
    "kernel/providers.ts → providers/github.ts",
  ],
  [
    "a feature importing another feature",
    {
      "features/email/index.ts":
        'import type { callback } from "../oauth/callback/run.js"\nexport type Callback = typeof callback',
    },
    "a feature imports another feature (features/*/ → features/*/)",
    "features/email/index.ts → features/oauth/callback/run.ts",
  ],
  [
    "a feature importing a provider",
    { "features/email/index.ts": 'export { default as github } from "../../providers/github.js"' },
    "a feature imports a provider (features/*/ → providers/)",
    "features/email/index.ts → providers/github.ts",
  ],
]

describe("check-core-layers", () => {
  it("passes a core whose folders import only downwards", async () => {
    const { code, output } = await check({})
    expect(output).toContain("no folder imports a folder it must not")
    expect(code).toBe(0)
  })

  it("fails two folders that import each other, type-only imports included", async () => {
    const { code, output } = await check(PAIR)
    expect(code).toBe(1)
    expect(output).toContain("1 pair(s) of folders import each other")
    expect(output).toContain("kernel/cookies/ ↔ kernel/grants/")
    expect(output).toContain("kernel/cookies/cookie.ts → kernel/grants/grant.ts")
    expect(output).toContain("kernel/grants/grant.ts → kernel/cookies/cookie.ts")
    expect(output).toContain("Fix: move what both need into a folder below them both")
  })

  it("fails a folder that imports an entry file back", async () => {
    const { code, output } = await check({
      "kernel/grants/grant.ts":
        'export interface Grant { id: string; handle?: typeof import("../../index.js").handle }',
    })
    expect(code).toBe(1)
    expect(output).toContain("1 entry file(s) imported back from a folder")
    expect(output).toContain("kernel/grants/grant.ts → index.ts")
  })

  it.each(LAYER_CASES)("fails %s", async (_, planted, rule, edge) => {
    const { code, output } = await check(planted)
    expect(code).toBe(1)
    expect(output).toContain(rule)
    expect(output).toContain(edge)
    expect(output).toMatch(/\n {2}Fix: /)
  })

  it("warns and passes before the kernel folder exists, unless --strict", async () => {
    const before = await check(PAIR, { layout: false })
    expect(before.output).toContain("lib/cookies/ ↔ lib/grants/")
    expect(before.output).toContain("warning only")
    expect(before.code).toBe(0)
    const strict = await check(PAIR, { layout: false, strict: true })
    expect(strict.output).toContain("lib/cookies/ ↔ lib/grants/")
    expect(strict.code).toBe(1)
  })
})
