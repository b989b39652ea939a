#!/usr/bin/env node
/**
 * Builds the page-bench app three times, varying only what `~auth-variant` (re-exported by
 * `src/routes/plugin@auth.ts`) points at: `latchkey`, `authjs` or `none`. Each build is Vite +
 * the Qwik optimizer (client), then the node-server adapter (SSR), into `.build/<variant>/`
 * (`dist/` and `server/`, the layout Qwik City's Node middleware expects).
 *
 * `ensureQwikApps()` is lazy: a variant is rebuilt only when a source is newer than its
 * `.build/<variant>/built` stamp. Builds run in a child process with `NODE_ENV=production`
 * (Qwik's build breaks under `NODE_ENV=test`), which also keeps Vite out of the bench process.
 *
 *   node bench/qwik-apps/build.mjs            # build what is stale
 *   node bench/qwik-apps/build.mjs --force    # rebuild all three
 */
import { spawnSync } from "node:child_process"
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { fileURLToPath, pathToFileURL } from "node:url"

const here = fileURLToPath(new URL(".", import.meta.url))
const repo = join(here, "..", "..")
const self = fileURLToPath(import.meta.url)

export const VARIANTS = ["latchkey", "authjs", "none", "loader"]

/** The built server's entry point for `variant`. */
export const serverEntry = (variant) =>
  join(here, ".build", variant, "server", "entry.node-server.js")

const stampOf = (variant) => join(here, ".build", variant, "built")

// Library code is bundled into the server (linked workspaces and Qwik libraries are not
// externalised), so a rebuilt package must make its variant stale too.
const inputsOf = (variant) => [
  join(here, "src"),
  self,
  ...(variant === "latchkey"
    ? [join(repo, "packages/qwik/dist"), join(repo, "packages/core/dist")]
    : []),
  ...(variant === "authjs" ? [join(repo, "node_modules/@auth/qwik/package.json")] : []),
]

function newestMtime(path) {
  if (!existsSync(path)) return Number.POSITIVE_INFINITY // missing input: never fresh
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  let newest = stat.mtimeMs
  for (const entry of readdirSync(path)) newest = Math.max(newest, newestMtime(join(path, entry)))
  return newest
}

/** Whether the build stamped by `stamp` is missing or older than any of `inputs`. */
export function isStaleBuild(stamp, inputs) {
  if (!existsSync(stamp)) return true
  const built = statSync(stamp).mtimeMs
  return inputs.some((input) => newestMtime(input) > built)
}

const isStale = (variant) => isStaleBuild(stampOf(variant), inputsOf(variant))

/**
 * Run `script` (a build script of this kind) for the `stale` variants, in a child process with
 * `NODE_ENV=production`, after checking that the workspace `packages` it bundles are built.
 */
export function buildStale(script, packages, stale) {
  // `npm run bench` builds the core but (today) not the Qwik binding: say so rather than let Vite
  // fail to resolve it.
  for (const pkg of packages) {
    if (!existsSync(join(repo, "packages", pkg, "dist"))) {
      throw new Error(`packages/${pkg}/dist is missing: npm run build -w @latchkey/${pkg}`)
    }
  }
  if (stale.length === 0) return
  console.log(`Building the page-bench apps (${stale.join(", ")}) with ${script}…`)
  const { status } = spawnSync(process.execPath, [script, ...stale], {
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production" },
  })
  if (status !== 0) throw new Error(`${script} failed (exit ${status})`)
}

/** Build the variants whose build is missing or older than its sources (all with `force`). */
export function ensureQwikApps({ force = false } = {}) {
  buildStale(self, ["core", "qwik"], force ? VARIANTS : VARIANTS.filter(isStale))
}

async function buildVariant(variant) {
  const { build } = await import("vite")
  const { qwikVite } = await import("@builder.io/qwik/optimizer")
  const { qwikCity } = await import("@builder.io/qwik-city/vite")
  const { nodeServerAdapter } = await import("@builder.io/qwik-city/adapters/node-server/vite")
  // The migration guide's step 1: keeps the latchkey variant's QwikAuth$ config out of the
  // client build (it only touches imports from @latchkey/qwik, so the others are unchanged).
  const { latchkey } = await import("@latchkey/qwik/vite")

  const out = join(here, ".build", variant)
  rmSync(out, { recursive: true, force: true })
  const client = { outDir: join(out, "dist") }
  const common = {
    root: here,
    configFile: false,
    mode: "production",
    logLevel: "warn",
    resolve: { alias: { "~auth-variant": join(here, "src", "auth", `${variant}.ts`) } },
  }

  await build({
    ...common,
    plugins: [latchkey(), qwikCity(), qwikVite({ client })],
    // Server-only imports of the config segment stay imports, as in the demo's client build.
    build: { target: "es2022", rollupOptions: { external: [/^node:/] } },
  })

  // Hand the client manifest over explicitly: without a package.json here the optimizer's
  // fallback is a temp file shared by every unnamed Qwik project on the machine.
  const manifestInput = JSON.parse(readFileSync(join(client.outDir, "q-manifest.json"), "utf8"))
  await build({
    ...common,
    plugins: [
      latchkey(),
      qwikCity(),
      qwikVite({ client, ssr: { outDir: join(out, "server"), manifestInput } }),
      // No static generation: every request must be server-rendered to measure anything.
      nodeServerAdapter({ name: "node-server", ssg: null }),
    ],
    build: {
      target: "es2022",
      ssr: true,
      rollupOptions: { input: [join(here, "src", "entry.node-server.tsx"), "@qwik-city-plan"] },
    },
  })
  writeFileSync(stampOf(variant), `${new Date().toISOString()}\n`)
}

if (process.argv[1] && pathToFileURL(process.argv[1]).href === import.meta.url) {
  process.env.NODE_ENV = "production"
  const args = process.argv.slice(2)
  const named = args.filter((a) => VARIANTS.includes(a))
  const unknown = args.filter((a) => a !== "--force" && !VARIANTS.includes(a))
  if (unknown.length) throw new Error(`unknown argument(s): ${unknown.join(" ")}`)
  const todo = named.length ? named : args.includes("--force") ? VARIANTS : VARIANTS.filter(isStale)
  for (const variant of todo) {
    const start = Date.now()
    await buildVariant(variant)
    console.log(`  ${variant}: built in ${((Date.now() - start) / 1000).toFixed(1)} s`)
  }
}
