/**
 * Library build of `@latchkey/qwik2`: the sources of `@latchkey/qwik` (`../qwik/src`), compiled
 * against Qwik 2. Three differences from `../qwik/vite.config.ts`:
 *
 * - Qwik 1's module names are rewritten to Qwik 2's (`@builder.io/qwik` → `@qwik.dev/core`,
 *   `@builder.io/qwik-city` → `@qwik.dev/router`, subpaths kept) and left external.
 * - The few modules where Qwik 2 behaves differently resolve to `./src/<name>.ts` instead (see
 *   `build-imports.mjs`); an override may import the v1 module it replaces.
 * - No Qwik optimizer. Qwik 2's, in a library build, turns each `routeLoader$(fn)` into
 *   `routeLoaderQrl(inlinedQrl(fn))`, which the app's optimizer can no longer strip from the
 *   client build (and with `fn` the dynamic import of the server half and the core). The
 *   `$(...)` calls are left for the app's optimizer, as Qwik 1's library build leaves them.
 * - Vite 8 (Rolldown), as Qwik 2 requires.
 *
 * The output has the same two files as the v1 build (`dist/index.qwik.mjs`, `dist/server.js`).
 */
import { defineConfig, type Plugin } from "vite"
import { isExternal, overrideOf, toQwik2 } from "./build-imports.mjs"

/**
 * Before any other plugin (the Qwik plugin resolves every import itself): Qwik 1 names become
 * Qwik 2 names, dependencies stay external, and overridden modules are swapped.
 */
const qwik2Imports: Plugin = {
  name: "latchkey-qwik2-imports",
  enforce: "pre",
  async resolveId(source, importer, options) {
    const renamed = toQwik2(source)
    if (isExternal(renamed)) return { id: renamed, external: true }
    if (!source.startsWith(".") || !importer) return null
    const resolved = await this.resolve(source, importer, { ...options, skipSelf: true })
    const override = resolved && overrideOf(resolved.id, importer)
    return override ? { id: override } : resolved
  },
}

export default defineConfig({
  build: {
    target: "es2022",
    outDir: "dist",
    emptyOutDir: true,
    minify: false,
    sourcemap: true,
    lib: {
      entry: { index: "../qwik/src/index.ts", server: "../qwik/src/server.ts" },
      formats: ["es"],
      fileName: (_format, name) => (name === "index" ? "index.qwik.mjs" : `${name}.js`),
    },
    rolldownOptions: {
      // Rolldown refuses a function here; the plugin above marks them anyway.
      external: [/^node:/, /^@qwik\.dev\//, /^@latchkey\/core(\/|$)/, /^@simplewebauthn\//],
      // Shared code goes to named chunks, never into the client entry through the server one.
      output: { chunkFileNames: "[name].js" },
    },
  },
  plugins: [qwik2Imports],
})
