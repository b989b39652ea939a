// `npx latchkey vite`, and the Vite step of `npx latchkey init`: add `latchkey()` from
// `@latchkey/qwik/vite` to the app's `vite.config.*` (the edit itself is `src/vite-setup.ts`).
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"

const CONFIG_NAMES = ["vite.config.ts", "vite.config.mts", "vite.config.js", "vite.config.mjs"]

/**
 * @typedef {{ status: "added" | "present"; file: string; message: string }
 *   | { status: "missing" | "unrecognised"; file?: string; message: string }} ViteStep
 */

/**
 * Adds the plugin to the Vite config in `dir` (unless `dryRun`), saying what it did or why not.
 * @param {string} dir
 * @param {{ dryRun?: boolean }} [options]
 * @returns {Promise<ViteStep>}
 */
export async function addVitePlugin(dir, { dryRun = false } = {}) {
  // The built module (this bin ships with `dist/`); typed from its source.
  /** @type {typeof import("../src/vite-setup.js")} */
  const { addLatchkeyPlugin, VITE_PLUGIN_IMPORT } = await import(
    new URL("../dist/vite-setup.js", import.meta.url).href
  )
  const manual = `Add it by hand:\n  ${VITE_PLUGIN_IMPORT}\nand latchkey() first in plugins: [...].`
  const file = CONFIG_NAMES.find((name) => existsSync(join(dir, name)))
  if (!file) return { status: "missing", message: `no vite.config.ts in ${dir}. ${manual}` }
  const edit = addLatchkeyPlugin(readFileSync(join(dir, file), "utf8"))
  if (edit.status === "present") {
    return { status: "present", file, message: `${file} already uses latchkey().` }
  }
  if (edit.status === "unrecognised") {
    return {
      status: "unrecognised",
      file,
      message: `found no \`plugins: [\` in ${file}. ${manual}`,
    }
  }
  if (!dryRun) writeFileSync(join(dir, file), edit.source)
  return {
    status: "added",
    file,
    message: `${file}: added ${VITE_PLUGIN_IMPORT} and latchkey() to plugins.`,
  }
}
