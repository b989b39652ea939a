/**
 * Vitest suites run in lanes: the steps of a lane one after another, the lanes side by side,
 * each step's output prefixed with its name. Every step runs even after one fails (a CI run
 * reports the whole suite); the exit code is the worst step's. Used by `npm test` (all suites,
 * `scripts/test-all.mjs`) and `npm run test:e2e` (the two browser projects, `scripts/test-e2e.mjs`).
 */
import { spawn } from "node:child_process"
import { mkdirSync, mkdtempSync, rmSync } from "node:fs"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"

export const root = fileURLToPath(new URL("..", import.meta.url))
const vitest = fileURLToPath(new URL("../node_modules/vitest/vitest.mjs", import.meta.url))

/**
 * The suites by name: Vitest's arguments, where it writes its JSON report (`output`, relative to
 * the config's root, which is how Vitest reads it) and where that is from the repository
 * (`report`), and the environment it adds. The e2e projects skip their build: the caller has
 * built everything once before.
 */
export const suites = {
  unit: { args: [], output: ".tmp/unit-tests.json", report: ".tmp/unit-tests.json" },
  docs: {
    args: ["--config", "docs/site/vitest.config.ts"],
    output: ".tmp/docs-tests.json",
    report: "docs/site/.tmp/docs-tests.json",
  },
  demo: e2eProject("demo"),
  apps: e2eProject("apps"),
  init: e2eProject("init"),
}

function e2eProject(project) {
  return {
    args: ["--config", "e2e/vitest.config.ts", "--project", project],
    output: `../.tmp/e2e-${project}.json`,
    report: `.tmp/e2e-${project}.json`,
    env: { E2E_PART: project, E2E_SKIP_BUILD: "1" },
  }
}

/** Copies a child's output to ours, line by line, each line led by `[name]`. */
function prefixLines(stream, out, name) {
  let rest = ""
  stream.setEncoding("utf8")
  stream.on("data", (chunk) => {
    const lines = (rest + chunk).split("\n")
    rest = lines.pop() ?? ""
    for (const line of lines) out.write(`[${name}] ${line}\n`)
  })
  stream.on("end", () => rest && out.write(`[${name}] ${rest}\n`))
}

/** Runs one suite with `env` added; resolves with its exit code and seconds. */
export function runSuite(name, extra = [], env = {}) {
  const suite = suites[name]
  const args = [vitest, "run", ...suite.args, "--reporter=default", "--reporter=json"]
  args.push(`--outputFile.json=${suite.output}`, ...extra)
  const started = Date.now()
  // A temporary directory per suite: Qwik 1's Vite plugin hands the client build's manifest to
  // the server build through `$TMPDIR/vite-plugin-qwik-q-manifest-<package name>.json`, and the
  // fixture apps all carry the starter's name, so two suites building apps at the same time
  // served pages naming another build's chunks (the runtimes' JavaScript passes failed so, on a
  // busy machine, where builds last long enough to overlap).
  const tmp = mkdtempSync(join(tmpdir(), `latchkey-${name}-`))
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env, ...suite.env, TMPDIR: tmp },
    stdio: ["ignore", "pipe", "pipe"],
  })
  prefixLines(child.stdout, process.stdout, name)
  prefixLines(child.stderr, process.stderr, name)
  return new Promise((resolve) => {
    child.on("exit", (code, signal) => {
      if (!process.env.E2E_KEEP_FIXTURES) rmSync(tmp, { recursive: true, force: true })
      resolve({ name, code: code ?? (signal ? 1 : 0), seconds: (Date.now() - started) / 1000 })
    })
  })
}

/**
 * Runs the lanes side by side; prints each suite's outcome and time; resolves with the worst
 * code. The e2e projects share one fixture cache (packed packages, installed starters), made
 * here and removed at the end, so no package is packed or starter installed twice in a run.
 */
export async function runLanes(lanes, extra = []) {
  mkdirSync(`${root}.tmp`, { recursive: true })
  const cache = mkdtempSync(join(tmpdir(), "latchkey-fixture-cache-"))
  const started = Date.now()
  const results = (
    await Promise.all(
      lanes.map(async (lane) => {
        const done = []
        for (const name of lane) {
          done.push(await runSuite(name, extra, { E2E_FIXTURE_CACHE: cache }))
        }
        return done
      }),
    )
  ).flat()
  if (!process.env.E2E_KEEP_FIXTURES) rmSync(cache, { recursive: true, force: true })
  for (const { name, code, seconds } of results)
    console.log(`${name}: ${code === 0 ? "passed" : "FAILED"} in ${Math.round(seconds)} s`)
  console.log(`all lanes: ${Math.round((Date.now() - started) / 1000)} s`)
  return Math.max(...results.map((r) => r.code))
}
