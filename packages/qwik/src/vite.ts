/**
 * `@latchkey/qwik/vite`: the Vite plugin that keeps a `QwikAuth$` config out of the client build.
 *
 * Qwik's optimizer splits the function given to any `…$` call into its own module (a segment)
 * and, in client builds, writes every segment as a chunk, except those of calls whose imported
 * name starts with a server-only prefix such as `route` (`routeLoader$`, `routeAction$`): it
 * replaces those with an empty placeholder. `QwikAuth$` has no such prefix, so without this
 * plugin `dist/build` holds the app's config and everything it imports (adapter, database
 * driver, `authorize()` code), although nothing in the browser loads it.
 *
 * The plugin rewrites `import { QwikAuth$ } from "@latchkey/qwik"` to
 * `import { routeAuth$ as QwikAuth$ } from "@latchkey/qwik"` before the optimizer sees the
 * module. The optimizer names a segment after the imported name, so the config is stripped from
 * client builds exactly as with `routeAuth$`; the app's code is otherwise untouched, and the
 * server build (where the rewrite is a no-op) keeps working as before.
 *
 * This module runs in `vite.config.ts` under Node: it imports nothing.
 *
 * @module @latchkey/qwik/vite
 */

/** The subset of Vite's `Plugin` this plugin uses (so the package needs no types from `vite`). */
export interface LatchkeyVitePlugin {
  name: string
  enforce: "pre"
  transform: {
    order: "pre"
    handler(code: string, id: string): { code: string; map: null } | null
  }
}

/** `import { … } from "@latchkey/qwik"` (not `import type`), with its specifier list. */
const QWIK_IMPORT = /import\s*\{([^}]*)\}\s*from\s*(["'])@latchkey\/qwik\2/g
/** `QwikAuth$` as an imported name, with or without `as local`. */
const QWIK_AUTH_SPECIFIER = /(^|[\s,{])(?:type\s+)?QwikAuth\$(\s+as\s+[\w$]+)?(?=\s*(?:,|$))/g

/** Source files the optimizer transforms; dependencies are libraries, not apps. */
function isAppModule(id: string): boolean {
  const path = id.split("?")[0] ?? id
  return !id.startsWith("\0") && !path.includes("/node_modules/") && /\.[cm]?[jt]sx?$/.test(path)
}

/**
 * `code` with each `QwikAuth$` imported from `@latchkey/qwik` imported as `routeAuth$` under its
 * local name, or `null` when there is none.
 */
export function routeAuthImports(code: string): string | null {
  if (!code.includes("QwikAuth$")) return null
  let changed = false
  const out = code.replace(QWIK_IMPORT, (statement: string, specifiers: string) => {
    const rewritten = specifiers.replace(
      QWIK_AUTH_SPECIFIER,
      (specifier: string, before: string, alias: string | undefined) => {
        // `import { type QwikAuth$ }` is erased by TypeScript: nothing to strip.
        if (/\btype\s+QwikAuth\$/.test(specifier)) return specifier
        changed = true
        return `${before}routeAuth$${alias ?? " as QwikAuth$"}`
      },
    )
    return statement.replace(specifiers, rewritten)
  })
  return changed ? out : null
}

/**
 * Add to `plugins` in `vite.config.ts` (`npx latchkey vite` does it):
 *
 * ```ts
 * import { latchkey } from "@latchkey/qwik/vite"
 * // …
 * plugins: [latchkey(), qwikCity(), qwikVite(), tsconfigPaths()],
 * ```
 *
 * @public
 */
export function latchkey(): LatchkeyVitePlugin {
  return {
    name: "latchkey",
    enforce: "pre",
    transform: {
      // Before Qwik's optimizer (itself an `enforce: "pre"` plugin), wherever this one is listed.
      order: "pre",
      handler(code, id) {
        if (!isAppModule(id)) return null
        const rewritten = routeAuthImports(code)
        return rewritten === null ? null : { code: rewritten, map: null }
      },
    },
  }
}
