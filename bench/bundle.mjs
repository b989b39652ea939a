// `npm run bench bundle`: what a Cloudflare Worker carries for each app (issue 43: an app
// bundles only the features it configures). Each app of bench/bundle-apps.mjs is a tiny Worker
// entry, bundled from the packages' built `dist` with esbuild exactly as the issue does
// (`--bundle --minify --platform=browser --format=esm --conditions=workerd,worker`), Latchkey
// beside `@auth/core` where Auth.js has the same config. Per app it prints:
//
// - bytes and gzip bytes of the one-file bundle;
// - the same entry with `--splitting`: the entry chunk plus its static imports (what is loaded
//   at start-up; dynamic imports load when first run) beside all chunks;
// - start-up: spawn of a fresh workerd serving the one-file bundle to the end of its first
//   response (bench/workerd-start.mjs), median of BENCH_STARTS runs (default 10; 0 skips), both
//   sides interleaved, with the CPU time workerd used until then (which a busy machine moves far
//   less than the wall time) and an empty Worker's figures as the floor;
// - the largest parts of each bundle (esbuild's metafile, grouped by package and by the core's
//   folders), so a change in size can be traced to what caused it.
//
// The entries, bundles and workerd configs stay in .tmp/bench-bundle/<app>/ to inspect or rebuild
// by hand (`npx esbuild .tmp/bench-bundle/github-only/latchkey.mjs --bundle --minify …`).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs"
import os from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { gzipSync } from "node:zlib"
import { build, version as esbuildVersion } from "esbuild"
import { APPS } from "./bundle-apps.mjs"
import { printTable } from "./harness.mjs"
import { timeFirstResponse, workerdVersion, writeWorkerdConfig } from "./workerd-start.mjs"

const ROOT = fileURLToPath(new URL("..", import.meta.url))
const OUT = join(ROOT, ".tmp/bench-bundle")
const STARTS = Number(process.env.BENCH_STARTS ?? 10)
/** Parts listed per bundle. */
const TOP = 8

/** esbuild's options for a Worker: issue 43's command line. */
const WORKER_BUILD = {
  bundle: true,
  minify: true,
  platform: "browser",
  format: "esm",
  conditions: ["workerd", "worker"],
  absWorkingDir: ROOT,
  metafile: true,
  logLevel: "error",
}
const COMMAND_LINE = "--bundle --minify --platform=browser --format=esm --conditions=workerd,worker"

const SIDES = ["latchkey", "authjs"]
const AUTHJS_VERSION = JSON.parse(
  readFileSync(join(ROOT, "node_modules/@auth/core/package.json"), "utf8"),
).version

const slug = (name) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")

/** Bytes and gzip bytes (Node's zlib, default level) of the files `paths` (relative to ROOT). */
function sizeOf(paths) {
  let bytes = 0
  let gzip = 0
  for (const path of paths) {
    const contents = readFileSync(join(ROOT, path))
    bytes += contents.length
    gzip += gzipSync(contents).length
  }
  return { bytes, gzip }
}

/**
 * What a part of a bundle is called: the package under node_modules, the core's folder (two
 * levels below `dist`: `lib/password/`, `features/passkey/`, `kernel/cookies/`), another
 * workspace package, or the Worker's own entry.
 */
function partOf(path) {
  const modules = path.lastIndexOf("node_modules/")
  if (modules >= 0) {
    const [scope, name] = path.slice(modules + "node_modules/".length).split("/")
    return scope.startsWith("@") ? `${scope}/${name}` : scope
  }
  const core = /^packages\/core\/dist\/(.*)$/.exec(path)
  if (core) {
    const folders = core[1].split("/").slice(0, -1)
    return folders.length ? `core ${folders.slice(0, 2).join("/")}/` : "core (entry files)"
  }
  const workspace = /^packages\/([^/]+)\//.exec(path)
  return workspace ? `@latchkey/${workspace[1]}` : "(the Worker's entry)"
}

/** The parts of the one output of `metafile`, largest first: [name, bytes in the output]. */
function partsOf(metafile) {
  const [output] = Object.values(metafile.outputs)
  const parts = new Map()
  for (const [path, { bytesInOutput }] of Object.entries(output.inputs)) {
    parts.set(partOf(path), (parts.get(partOf(path)) ?? 0) + bytesInOutput)
  }
  return [...parts].sort(([, a], [, b]) => b - a)
}

/** The Worker as one file: its size, its parts, and the file. */
async function bundleOneFile(entry, outfile) {
  const { metafile } = await build({ ...WORKER_BUILD, entryPoints: [entry], outfile })
  return { file: outfile, ...sizeOf(Object.keys(metafile.outputs)), parts: partsOf(metafile) }
}

/**
 * The Worker with `--splitting`: the size of what loads at start-up (the entry chunk and the
 * chunks it imports statically, transitively) and of all chunks.
 */
async function bundleSplit(entry, outdir) {
  const { metafile } = await build({
    ...WORKER_BUILD,
    entryPoints: [entry],
    outdir,
    splitting: true,
  })
  const outputs = metafile.outputs
  const entryChunk = Object.keys(outputs).find((path) => outputs[path].entryPoint)
  const atStart = new Set()
  const pending = [entryChunk]
  while (pending.length > 0) {
    const path = pending.pop()
    if (atStart.has(path)) continue
    atStart.add(path)
    for (const { path: imported, kind } of outputs[path].imports) {
      if (kind === "import-statement") pending.push(imported)
    }
  }
  return { atStart: sizeOf([...atStart]), total: sizeOf(Object.keys(outputs)) }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}

/** Median start-up of each side's one-file Worker, the sides alternating run by run. */
async function timeStarts(app, bundles) {
  const sides = SIDES.filter((side) => bundles[side])
  const configs = Object.fromEntries(sides.map((s) => [s, writeWorkerdConfig(bundles[s].file)]))
  const samples = Object.fromEntries(sides.map((side) => [side, []]))
  for (let run = 0; run < STARTS; run++) {
    for (const side of run % 2 ? [...sides].reverse() : sides) {
      samples[side].push(await timeFirstResponse(configs[side], app.path))
    }
  }
  return Object.fromEntries(sides.map((side) => [side, medians(samples[side])]))
}

/** The median wall and CPU times of `samples` ({ ms, cpu } each). */
const medians = (samples) => ({
  ms: median(samples.map((s) => s.ms)),
  cpu: samples.some((s) => s.cpu === undefined) ? undefined : median(samples.map((s) => s.cpu)),
})

/** workerd's own start-up: a Worker that answers `{}` and imports nothing, median of STARTS. */
async function timeEmptyWorker() {
  const dir = join(OUT, "empty-worker")
  mkdirSync(dir, { recursive: true })
  const entry = join(dir, "worker.mjs")
  writeFileSync(entry, "export default { fetch() { return Response.json({}) } }\n")
  const { file } = await bundleOneFile(entry, join(dir, "worker.js"))
  const config = writeWorkerdConfig(file)
  const samples = []
  for (let run = 0; run < STARTS; run++) samples.push(await timeFirstResponse(config, "/"))
  return medians(samples)
}

const bytes = (n) => `${n.toLocaleString("en-US")} B`
const sized = (size) =>
  size ? `${bytes(size.bytes)} (${size.gzip.toLocaleString("en-US")} gzip)` : "—"
const times = (a, b) => (a && b ? `${(a / b).toFixed(2)}×` : "—")
const ms = (n) => (n === undefined ? "—" : n.toFixed(0))
const kb = (n) => `${(n / 1000).toFixed(1)} kB`
/**
 * The TOP largest of `parts` as one cell: the core's folders (after their sum), or everything
 * else (packages).
 */
function largest(parts, core) {
  const chosen = (parts ?? []).filter(([name]) => name.startsWith("core ") === core)
  if (chosen.length === 0) return "—"
  const top = chosen.slice(0, TOP).map(([name, n]) => `${name.replace(/^core /, "")} ${kb(n)}`)
  const sum = chosen.reduce((total, [, n]) => total + n, 0)
  return `${core ? `${kb(sum)} in all: ` : ""}${top.join(", ")}`
}

export async function benchBundles() {
  rmSync(OUT, { recursive: true, force: true })
  const results = []
  const loadBefore = os.loadavg()[0]
  const floor = STARTS > 0 ? await timeEmptyWorker() : undefined
  for (const app of APPS) {
    const dir = join(OUT, slug(app.name))
    mkdirSync(dir, { recursive: true })
    const result = { app, one: {}, split: {}, start: {} }
    for (const side of SIDES) {
      if (!app[side]) continue
      const entry = join(dir, `${side}.mjs`)
      writeFileSync(entry, app[side])
      result.one[side] = await bundleOneFile(entry, join(dir, `${side}.js`))
      result.split[side] = await bundleSplit(entry, join(dir, `${side}-split`))
    }
    if (STARTS > 0) result.start = await timeStarts(app, result.one)
    results.push(result)
  }
  const load = `1-minute load average ${loadBefore.toFixed(1)} before, ${os.loadavg()[0].toFixed(1)} after`

  printTable(
    `Worker bundles (esbuild ${esbuildVersion} \`${COMMAND_LINE}\`, one file)`,
    ["app", "Latchkey", `Auth.js (\`@auth/core\` ${AUTHJS_VERSION})`, "Latchkey ÷ Auth.js"],
    results.map(({ app, one }) => [
      app.name,
      sized(one.latchkey),
      sized(one.authjs),
      times(one.latchkey?.bytes, one.authjs?.bytes),
    ]),
  )
  printTable(
    "The same Workers with `--splitting`: loaded at start-up (the entry chunk and its static imports) and all chunks",
    [
      "app",
      "Latchkey at start-up",
      "Latchkey, all chunks",
      "Auth.js at start-up",
      "Auth.js, all chunks",
    ],
    results.map(({ app, split }) => [
      app.name,
      sized(split.latchkey?.atStart),
      sized(split.latchkey?.total),
      sized(split.authjs?.atStart),
      sized(split.authjs?.total),
    ]),
  )
  if (STARTS > 0) {
    printTable(
      `Start-up in workerd ${workerdVersion}: spawn to the end of the first response, and the CPU workerd used until then (ms, median of ${STARTS}; an empty Worker: ${ms(floor.ms)} ms, ${ms(floor.cpu)} ms CPU; ${load})`,
      ["app", "GET", "Latchkey", "Auth.js", "Latchkey ÷ Auth.js", "Latchkey CPU", "Auth.js CPU"],
      results.map(({ app, start }) => [
        app.name,
        app.path,
        ms(start.latchkey?.ms),
        ms(start.authjs?.ms),
        times(start.latchkey?.ms, start.authjs?.ms),
        ms(start.latchkey?.cpu),
        ms(start.authjs?.cpu),
      ]),
    )
  }
  printTable(
    `The largest parts of each one-file bundle (esbuild metafile: bytes in the minified output, top ${TOP})`,
    ["app", "Latchkey: packages", "Latchkey: the core's folders", "Auth.js: packages"],
    results.map(({ app, one }) => [
      app.name,
      largest(one.latchkey?.parts, false),
      largest(one.latchkey?.parts, true),
      largest(one.authjs?.parts, false),
    ]),
  )
  console.log(`\nEntries, bundles and workerd configs: ${OUT}`)
}
