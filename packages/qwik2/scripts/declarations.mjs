#!/usr/bin/env node
/**
 * After `vite build`: the rest of `dist/`.
 *
 * - Declarations: `tsc` emits them from the shared sources, type-checked against Qwik 2 (see
 *   `tsconfig.json`'s `paths`), and each Qwik 1 module name in them becomes its Qwik 2 name, so an
 *   app's types come from `@qwik.dev/*` only. The overridden modules are internal (none of their
 *   types is part of the public surface), so the shared sources' declarations describe this build.
 * - `dist/bin/`: the same `npx latchkey` (`secret`, `init`, `migrate`) as `@latchkey/qwik`.
 */
import { execFileSync } from "node:child_process"
import { cpSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { toQwik2 } from "../build-imports.mjs"

const root = fileURLToPath(new URL("..", import.meta.url))
const dist = join(root, "dist")

execFileSync(
  process.execPath,
  [join(root, "../../node_modules/typescript/bin/tsc"), "-p", "tsconfig.build.json"],
  {
    cwd: root,
    stdio: "inherit",
  },
)

/** `from "x"`, `import("x")` and `import "x"` in a declaration file. */
const specifier = /(\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)(["'])([^"']+)\2/g

/** @param {string} dir */
function rewrite(dir) {
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry)
    if (statSync(path).isDirectory()) rewrite(path)
    else if (entry.endsWith(".d.ts")) {
      const text = readFileSync(path, "utf8")
      const renamed = text.replace(
        specifier,
        (_, head, quote, name) => `${head}${quote}${toQwik2(name)}${quote}`,
      )
      if (renamed !== text) writeFileSync(path, renamed)
    }
  }
}
rewrite(dist)

// The whole bin directory: `latchkey.mjs` imports its commands (`init/`, `secret.mjs`, …).
cpSync(join(root, "../qwik/bin"), join(dist, "bin"), { recursive: true })
