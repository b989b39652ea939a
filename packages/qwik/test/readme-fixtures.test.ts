/**
 * The quick starts in the READMEs are the fixture apps the browser tests run
 * (`e2e/fixtures/*`): every code block marked `<!-- fixture: <path> -->` must equal that file,
 * and every file of the quick start's fixtures must be shown somewhere.
 */
import { readdirSync, readFileSync, statSync } from "node:fs"
import { join, relative } from "node:path"
import { fileURLToPath } from "node:url"
import { describe, expect, it } from "vitest"

const root = fileURLToPath(new URL("../../..", import.meta.url))
const fixtures = join(root, "e2e", "fixtures")
const readmes = ["README.md", "packages/qwik/README.md", "packages/adapter-postgres/README.md"]
const marked = /<!-- fixture: (\S+) -->\n```\w*\n([\s\S]*?)\n```/g

function blocks(readme: string): { path: string; code: string }[] {
  const text = readFileSync(join(root, readme), "utf8")
  return [...text.matchAll(marked)].map(([, path, code]) => ({ path: path!, code: code! }))
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry)
    return statSync(path).isDirectory() ? filesUnder(path) : [relative(fixtures, path)]
  })
}

describe.each(readmes)("%s", (readme) => {
  const shown = blocks(readme)

  it("shows at least one fixture file", () => {
    expect(shown.length).toBeGreaterThan(0)
  })

  it.each(shown.map((b) => [b.path, b.code]))(
    "shows %s exactly as the fixture has it",
    (path, code) => {
      expect(code).toBe(readFileSync(join(fixtures, path), "utf8").trimEnd())
    },
  )
})

it("the root README shows every file the quick start adds to the starter", () => {
  const shown = new Set(blocks("README.md").map((b) => b.path))
  for (const overlay of ["quickstart", "quickstart-pglite"]) {
    for (const file of filesUnder(join(fixtures, overlay))) expect(shown).toContain(file)
  }
})
