/**
 * How the shared sources (`../qwik/src`, written for Qwik 1) become `@latchkey/qwik2`, for the
 * Vite build and for the declarations (`scripts/declarations.mjs`).
 *
 * Qwik 2 renamed the packages (`@builder.io/qwik` → `@qwik.dev/core`, `@builder.io/qwik-city` →
 * `@qwik.dev/router`) and kept the subpaths this binding imports (`/build`,
 * `/middleware/request-handler`). The few modules where Qwik 2 behaves differently are replaced
 * by the file of the same name in `./src`:
 *
 * - `route-options.ts`: Qwik 2's loaders are strict (an action re-runs no loader it does not list
 *   in `invalidate`), and a loader's JSON answer is `no-cache` without `private`.
 * - `redirect.ts`: Qwik 2 answers an action submitted with JavaScript as JSON and follows its
 *   redirect with `goto()`, which does nothing for the page already shown; its data requests are
 *   `q-loader-*.json`, not `q-data.json`.
 * - `action-body.ts`: Qwik 2 rebuilds the request of a loader declared at another path from the
 *   action's request, body included, after the action has read it.
 */
import { readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { fileURLToPath } from "node:url"

const here = dirname(fileURLToPath(import.meta.url))
const v1 = join(here, "../qwik/src")
const v2 = join(here, "src")
const pkg = JSON.parse(readFileSync(join(here, "package.json"), "utf8"))

/** @type {readonly [RegExp, string][]} */
const renames = [
  [/^@builder\.io\/qwik-city(?=\/|$)/, "@qwik.dev/router"],
  [/^@builder\.io\/qwik(?=\/|$)/, "@qwik.dev/core"],
]

/**
 * `specifier` under its Qwik 2 name (unchanged when it is not a Qwik 1 module).
 * @param {string} specifier
 */
export function toQwik2(specifier) {
  for (const [from, to] of renames) {
    if (from.test(specifier)) return specifier.replace(from, to)
  }
  return specifier
}

/** @type {string[]} */
const externalPackages = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies)]

/**
 * Dependencies and Qwik itself belong to the app: never bundled into the library.
 * @param {string} id
 */
export function isExternal(id) {
  return id.startsWith("node:") || externalPackages.some((d) => id === d || id.startsWith(`${d}/`))
}

/** File names (in both source directories) that Qwik 2 replaces. */
export const overridden = ["route-options.ts", "redirect.ts", "action-body.ts"]

/**
 * The Qwik 2 file for `resolved`, when it is an overridden v1 module imported by anything but
 * its own override (which re-exports the parts that do not differ); else `null`.
 * @param {string} resolved
 * @param {string} importer
 */
export function overrideOf(resolved, importer) {
  const path = resolved.split("?", 1)[0] ?? resolved
  for (const name of overridden) {
    if (path === join(v1, name) && !importer.startsWith(`${v2}/`)) return join(v2, name)
  }
  return null
}
