/**
 * Every TypeScript block of the documentation site's pages type-checks against the packages'
 * sources: each block becomes a module of its own and `tsc` checks them all in one run. A block
 * marked `<!-- fixture: <path> -->` is that fixture's file (readme-fixtures.test.ts) and is
 * built with it by the browser tests; a block that is deliberately a fragment says so right
 * above it, with the reason: `<!-- snippet: partial — <reason> -->`.
 */
import { execFileSync } from "node:child_process"
import { mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { expect, it } from "vitest"

const root = fileURLToPath(new URL("../../..", import.meta.url))
const out = join(root, ".tmp", "site-snippets")

function pages(dir = join(root, "docs/site/pages")): string[] {
  return readdirSync(dir).flatMap((entry) => {
    const path = join(dir, entry)
    if (statSync(path).isDirectory()) return pages(path)
    return path.endsWith(".md") ? [path] : []
  })
}

interface Block {
  page: string
  file: string
  code: string
  marker: string | undefined
}

const blockPattern = /(?:<!-- (fixture|snippet): ([^\n]*?) -->\n)?```(tsx?)\n([\s\S]*?)\n```/g

function blocks(): Block[] {
  return pages().flatMap((path) => {
    const page = path.slice(root.length + "docs/site/pages/".length)
    return [...readFileSync(path, "utf8").matchAll(blockPattern)].map((m, i) => ({
      page,
      file: `${page.replace(/\W/g, "_")}_${i}.${m[3]}`,
      code: m[4]!,
      marker: m[1] ? `${m[1]}: ${m[2]}` : undefined,
    }))
  })
}

const all = blocks()
const checked = all.filter((b) => b.marker === undefined)

it("partial blocks say why", () => {
  for (const { marker } of all.filter((b) => b.marker?.startsWith("snippet"))) {
    expect(marker).toMatch(/^snippet: partial — .{10,}/)
  }
  expect(checked.length).toBeGreaterThan(5)
})

it("every other block type-checks against the packages", () => {
  rmSync(out, { recursive: true, force: true })
  mkdirSync(out, { recursive: true })
  for (const { file, code } of checked) {
    const qwik2 = code.includes("@qwik.dev/") || code.includes("@latchkey/qwik2")
    const pragma = qwik2 ? "/** @jsxImportSource @qwik.dev/core */\n" : ""
    writeFileSync(join(out, file), `${pragma}${code}\nexport {}\n`)
  }
  writeFileSync(
    join(out, "tsconfig.json"),
    JSON.stringify({
      extends: "../../tsconfig.base.json",
      compilerOptions: {
        noEmit: true,
        jsx: "react-jsx",
        jsxImportSource: "@builder.io/qwik",
        module: "ESNext",
        moduleResolution: "Bundler",
        allowImportingTsExtensions: true,
        // `~/lib/…` as the quick start's apps have it.
        // The Qwik bindings export only their builds: point at their sources instead.
        paths: {
          "~/*": ["../../e2e/fixtures/quickstart/src/*", "../../e2e/fixtures/own-users/src/*"],
          "@latchkey/qwik": ["../../packages/qwik/src/index.ts"],
          "@latchkey/qwik/vite": ["../../packages/qwik/src/vite.ts"],
          "@qwik.dev/*": ["../../packages/qwik2/node_modules/@qwik.dev/*"],
        },
      },
      include: ["*.ts", "*.tsx"],
    }),
  )
  const tsc = join(root, "node_modules", ".bin", "tsc")
  let output = ""
  try {
    execFileSync(tsc, ["-p", join(out, "tsconfig.json")], { cwd: out, encoding: "utf8" })
  } catch (error) {
    output = String((error as { stdout?: string }).stdout ?? error)
  }
  const failing = checked
    .filter((b) => output.includes(b.file))
    .map((b) => `${b.page}: ${b.code.split("\n")[0]}`)
  expect(failing, output).toEqual([])
})
