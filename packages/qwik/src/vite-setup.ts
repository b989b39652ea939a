/**
 * `npx latchkey vite`: add `latchkey()` (see `vite.ts`) to an app's `vite.config.ts`, the way a
 * person would: one import line, and the call first in `plugins: [...]`. A config this cannot
 * read (no `plugins: [` array) is left alone and the caller prints the two lines to add.
 */

export const VITE_PLUGIN_IMPORT = 'import { latchkey } from "@latchkey/qwik/vite"'

export type ViteConfigEdit =
  | { status: "added"; source: string }
  | { status: "present" }
  | { status: "unrecognised" }

/** The first `plugins: [` of the config, where `latchkey()` goes. */
const PLUGINS_ARRAY = /(\bplugins\s*:\s*\[)(\s*)/

/** Every `import … from "…"` statement at the top of a module (possibly over several lines). */
const IMPORT_STATEMENT = /^import\s[^;]*?from\s*["'][^"']+["'];?[ \t]*$/gm

/** `source` (a `vite.config.ts`) with `latchkey()` added, or why not. */
export function addLatchkeyPlugin(source: string): ViteConfigEdit {
  if (/\blatchkey\(\)/.test(source) && source.includes("@latchkey/qwik/vite")) {
    return { status: "present" }
  }
  if (!PLUGINS_ARRAY.test(source)) return { status: "unrecognised" }
  const withCall = source.replace(
    PLUGINS_ARRAY,
    (_, open: string, space: string) => `${open}${space}latchkey(), `,
  )
  // Keep the file's own quote and semicolon style on the new import line.
  const imports = [...withCall.matchAll(IMPORT_STATEMENT)]
  const last = imports.at(-1)
  const semicolon = last?.[0].trimEnd().endsWith(";") ? ";" : ""
  const quote = last?.[0].includes("'") && !last[0].includes('"') ? "'" : '"'
  const line = VITE_PLUGIN_IMPORT.replaceAll('"', quote) + semicolon
  if (!last) return { status: "added", source: `${line}\n${withCall}` }
  const end = (last.index ?? 0) + last[0].length
  return { status: "added", source: `${withCall.slice(0, end)}\n${line}${withCall.slice(end)}` }
}
