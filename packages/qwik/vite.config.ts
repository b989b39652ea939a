/**
 * Library build: the Qwik optimizer turns every `$(...)` into a lazy-loadable segment that the
 * consuming app's optimizer can pick up, so `dist/index.qwik.mjs` is consumed like any Qwik library.
 * Run with `--mode lib` (that is how the Qwik plugin recognises a library build).
 */
import { qwikVite } from "@builder.io/qwik/optimizer"
import { defineConfig, type Plugin } from "vite"
import pkg from "./package.json" with { type: "json" }

const externalPackages = [...Object.keys(pkg.dependencies), ...Object.keys(pkg.peerDependencies)]

function isExternal(id: string): boolean {
  return id.startsWith("node:") || externalPackages.some((d) => id === d || id.startsWith(`${d}/`))
}

/**
 * Mark dependencies external before any plugin resolves them: the Qwik plugin resolves every
 * import itself, which would otherwise require `@latchkey/core` to be built first.
 */
const externals: Plugin = {
  name: "latchkey-externals",
  enforce: "pre",
  resolveId: (id) => (isExternal(id) ? { id, external: true } : null),
}

export default defineConfig({
  build: {
    target: "es2022",
    outDir: "dist",
    emptyOutDir: true,
    minify: false,
    lib: {
      entry: "./src/index.ts",
      formats: ["es"],
      fileName: () => "index.qwik.mjs",
    },
    rollupOptions: { external: isExternal },
  },
  plugins: [externals, qwikVite()],
})
