/**
 * Library build. `dist/index.qwik.mjs`, the Qwik part (its `$(...)` calls are left for the
 * consuming app's optimizer, which splits them and drops server bodies from client builds),
 * `dist/server.js`, plain server code that `index.qwik.mjs` imports dynamically from those
 * server bodies only, and `dist/vite.js`/`dist/vite-setup.js`, the Vite plugin and the
 * `npx latchkey vite` edit (Node only). Run with `--mode lib` (how the Qwik plugin recognises a library build).
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
    sourcemap: true,
    lib: {
      entry: {
        index: "./src/index.ts",
        server: "./src/server.ts",
        vite: "./src/vite.ts",
        "vite-setup": "./src/vite-setup.ts",
      },
      formats: ["es"],
      fileName: (_format, name) => (name === "index" ? "index.qwik.mjs" : `${name}.js`),
    },
    rollupOptions: {
      external: isExternal,
      // Shared code goes to named chunks, never into the client entry through the server one.
      output: { chunkFileNames: "[name].js" },
    },
  },
  plugins: [externals, qwikVite()],
})
