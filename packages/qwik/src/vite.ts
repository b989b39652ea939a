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
 * It also warns about mistakes it can see at build time (`vite-checks.ts`). This module runs in
 * `vite.config.ts` under Node: it imports nothing but Node's modules.
 *
 * @module @latchkey/qwik/vite
 */

// biome-ignore-all lint/correctness/useQwikValidLexicalScope: a Vite plugin running in Node, no Qwik closure
import {
  checkModule,
  checkPrerendered,
  prerenderedPathnames,
  type SessionReader,
  sessionReader,
} from "./vite-checks.js"

/** The part of Vite's resolved config the plugin reads. */
export interface LatchkeyViteConfig {
  root: string
  build: { ssr?: unknown }
  logger: { warn(message: string): void }
  plugins: readonly { name: string; api?: unknown }[]
}

/** The subset of Vite's `Plugin` this plugin uses (so the package needs no types from `vite`). */
export interface LatchkeyVitePlugin {
  name: string
  enforce: "pre"
  configResolved(config: LatchkeyViteConfig): void
  transform: {
    order: "pre"
    handler(code: string, id: string): { code: string; map: null } | null
  }
  closeBundle: { order: "post"; sequential: true; handler(): void }
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
  let config: LatchkeyViteConfig | undefined
  // Each warning once per build (dev transforms a module again on every change).
  const warned = new Set<string>()
  const warn = (line: string) => {
    if (warned.has(line)) return
    warned.add(line)
    if (config) config.logger.warn(line)
    else console.warn(line)
  }
  const readers = new Map<string, SessionReader>()
  return {
    name: "latchkey",
    enforce: "pre",
    configResolved(resolved) {
      config = resolved
    },
    transform: {
      // Before Qwik's optimizer (itself an `enforce: "pre"` plugin), wherever this one is listed.
      order: "pre",
      handler(code, id) {
        if (!isAppModule(id)) return null
        const root = config?.root ?? ""
        for (const line of checkModule(id, code, root)) warn(line)
        const reader = sessionReader(id, code, root)
        if (reader) readers.set(reader.path, reader)
        const rewritten = routeAuthImports(code)
        return rewritten === null ? null : { code: rewritten, map: null }
      },
    },
    closeBundle: {
      // After the adapter's static generation (its own `closeBundle`, in the server build).
      order: "post",
      sequential: true,
      handler() {
        if (!config?.build.ssr || readers.size === 0) return
        const pages = prerenderedPathnames(clientOutDir(config))
        for (const line of checkPrerendered([...readers.values()], pages)) warn(line)
      },
    },
  }
}

/** Where the client build (and so the prerendered pages) went: Qwik's plugin knows. */
function clientOutDir(config: LatchkeyViteConfig): string {
  const qwik = config.plugins.find((p) => p.name === "vite-plugin-qwik")?.api as
    | { getClientPublicOutDir?: () => string | null; getClientOutDir?: () => string | null }
    | undefined
  const dir = qwik?.getClientPublicOutDir?.() ?? qwik?.getClientOutDir?.()
  return dir ?? `${config.root}/dist`
}
