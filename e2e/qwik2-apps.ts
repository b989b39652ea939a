/**
 * Fixture apps on Qwik 2: Qwik 2's `empty` starter (`fixtures/starter-v2`, from
 * `create-qwik@2.0.0-beta.43`) with `@latchkey/qwik2`. The overlays are the Qwik 1 fixtures'
 * files, moved over exactly as the README's "From Qwik 1" note says: the import names are swapped
 * and nothing else changes.
 */
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import type { QwikVersion } from "./fixture-apps.js"

/** The README's "From Qwik 1" table, in the order it must apply (longest name first). */
export const qwik1ToQwik2: readonly [string, string][] = [
  ["@builder.io/qwik-city", "@qwik.dev/router"],
  ["@builder.io/qwik", "@qwik.dev/core"],
  ["@latchkey/qwik", "@latchkey/qwik2"],
]

/** Swap the Qwik 1 import names in one source text (quoted module names only). */
export function moveToQwik2(source: string): string {
  return source.replace(
    /(["'])(@builder\.io\/qwik(?:-city)?|@latchkey\/qwik)(["'/])/g,
    (_, open, name, close) => {
      const renamed = qwik1ToQwik2.find(([from]) => from === name)?.[1] ?? name
      return `${open}${renamed}${close}`
    },
  )
}

function moveTree(dir: string): void {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry)
    if (statSync(path).isDirectory()) moveTree(path)
    else if (/\.[cm]?[jt]sx?$/.test(entry)) {
      const text = readFileSync(path, "utf8")
      const moved = moveToQwik2(text)
      if (moved !== text) writeFileSync(path, moved)
    }
  }
}

/** Qwik 2 (`@qwik.dev/core`, `@qwik.dev/router`, `@latchkey/qwik2`). */
export const qwik2: QwikVersion = {
  starter: "starter-v2",
  binding: "@latchkey/qwik2",
  prepare: (dir) => moveTree(join(dir, "src")),
}
