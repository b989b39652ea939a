#!/usr/bin/env node
/**
 * The page-bench app on Qwik 2: the same routes and auth variants as `../build.mjs` (`../src`),
 * built with `packages/qwik2`'s toolchain (Vite 8, `@qwik.dev/core`'s optimizer,
 * `@qwik.dev/router`'s Node adapter) into `./.build/<variant>/`. Three variants: `latchkey`
 * (`@latchkey/qwik2`), `none` and `loader` (a session `routeLoader$`, no auth); there is no
 * `@auth/qwik` for Qwik 2.
 *
 * The shared sources are written for Qwik 1: as the README's "From Qwik 1" note says, only their
 * module names change (rewritten in the source text before the optimizer reads it). The three
 * files whose code differs on Qwik 2 (root, SSR and server entries) are in `./src`. Qwik 2 and
 * Vite 8 are installed under `packages/qwik2/node_modules` only, so they are resolved from there.
 *
 *   node bench/qwik-apps/v2/build.mjs            # build what is stale
 *   node bench/qwik-apps/v2/build.mjs --force    # rebuild all three
 */
import { readFileSync, rmSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"
import { buildStale, isStaleBuild } from "../build.mjs"

const here = fileURLToPath(new URL(".", import.meta.url))
const shared = join(here, "..", "src")
const repo = join(here, "..", "..", "..")
const self = fileURLToPath(import.meta.url)
// Resolving from here finds Qwik 2 and Vite 8 (nested) and the workspace packages (hoisted).
const qwik2Package = join(repo, "packages", "qwik2", "package.json")

export const VARIANTS2 = ["latchkey", "none", "loader"]

/** The built server's entry point for `variant` on Qwik 2. */
export const serverEntry2 = (variant) =>
  join(here, ".build", variant, "server", "entry.node-server.js")

const stampOf = (variant) => join(here, ".build", variant, "built")

const inputsOf = (variant) => [
  shared,
  join(here, "src"),
  self,
  ...(variant === "latchkey"
    ? [join(repo, "packages/qwik2/dist"), join(repo, "packages/core/dist")]
    : []),
]

const isStale = (variant) => isStaleBuild(stampOf(variant), inputsOf(variant))

/** Build the Qwik 2 variants whose build is missing or older than its sources. */
export function ensureQwik2Apps({ force = false } = {}) {
  buildStale(self, ["core", "qwik2"], force ? VARIANTS2 : VARIANTS2.filter(isStale))
}

/** Qwik 1 module names in the shared sources, as the README's "From Qwik 1" table renames them. */
const renames = [
  [/(["'])@builder\.io\/qwik-city(?=["'/])/g, "$1@qwik.dev/router"],
  [/(["'])@builder\.io\/qwik(?=["'/])/g, "$1@qwik.dev/core"],
  [/(["'])@latchkey\/qwik(?=["'/])/g, "$1@latchkey/qwik2"],
]

/** Before the optimizer: renamed imports, resolved from `packages/qwik2`. */
const fromQwik1 = {
  name: "bench-from-qwik1",
  enforce: "pre",
  transform(code, id) {
    if (!id.startsWith(shared)) return null
    return renames.reduce((text, [from, to]) => text.replace(from, to), code)
  },
  resolveId(source, _importer, options) {
    if (!/^@qwik\.dev\/|^@latchkey\/qwik2(\/|$)/.test(source)) return null
    return this.resolve(source, qwik2Package, { ...options, skipSelf: true })
  },
}

/**
 * Import `name` as installed under `packages/qwik2` (Qwik 2's packages export `import` only, so
 * `require.resolve` cannot find them).
 */
export async function importFromQwik2(name) {
  const parts = name.split("/")
  const size = name.startsWith("@") ? 2 : 1
  const dir = join(repo, "packages/qwik2/node_modules", ...parts.slice(0, size))
  const subpath = parts.length > size ? `./${parts.slice(size).join("/")}` : "."
  const entry = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")).exports[subpath]
  // Conditions nest (`@qwik.dev/core`: import → production/development/…): take the default.
  let file = entry
  while (typeof file !== "string") file = file.import ?? file.default
  return import(pathToFileURL(join(dir, file)).href)
}

async function buildVariant(variant) {
  const { build } = await importFromQwik2("vite")
  const { qwikVite } = await importFromQwik2("@qwik.dev/core/optimizer")
  const { qwikRouter } = await importFromQwik2("@qwik.dev/router/vite")
  const { nodeServerAdapter } = await importFromQwik2("@qwik.dev/router/adapters/node-server/vite")

  const out = join(here, ".build", variant)
  rmSync(out, { recursive: true, force: true })
  const client = { outDir: join(out, "dist") }
  const common = {
    root: here,
    configFile: false,
    mode: "production",
    logLevel: "warn",
    resolve: { alias: { "~auth-variant": join(shared, "auth", `${variant}.ts`) } },
  }
  const router = () => qwikRouter({ routesDir: join(shared, "routes") })

  await build({
    ...common,
    plugins: [fromQwik1, router(), qwikVite({ client, srcDir: join(here, "src") })],
    build: { target: "es2022", rolldownOptions: { external: [/^node:/] } },
  })
  await build({
    ...common,
    plugins: [
      fromQwik1,
      router(),
      qwikVite({ client, srcDir: join(here, "src"), ssr: { outDir: join(out, "server") } }),
      // No static generation: every request must be server-rendered to measure anything.
      nodeServerAdapter({ name: "node-server", ssg: null }),
    ],
    // Qwik 2 is installed under packages/qwik2 only, not where the built server runs: bundle it
    // (and the binding, which imports it). The rest loads from the root node_modules, as in v1.
    ssr: { noExternal: [/^@qwik\.dev\//, /^@latchkey\/qwik2(\/|$)/] },
    build: {
      target: "es2022",
      ssr: true,
      // `BENCH_PAGE_MINIFY=0` (with --force) keeps function names, for readable CPU profiles.
      minify: process.env.BENCH_PAGE_MINIFY !== "0",
      rolldownOptions: { input: [join(here, "src", "entry.node-server.tsx")] },
    },
  })
  writeFileSync(stampOf(variant), `${new Date().toISOString()}\n`)
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  process.env.NODE_ENV = "production"
  const args = process.argv.slice(2)
  const named = args.filter((a) => VARIANTS2.includes(a))
  const todo = named.length
    ? named
    : args.includes("--force")
      ? VARIANTS2
      : VARIANTS2.filter(isStale)
  for (const variant of todo) {
    const start = Date.now()
    await buildVariant(variant)
    console.log(`  ${variant}: built in ${((Date.now() - start) / 1000).toFixed(1)} s`)
  }
}
