// `npm run bench tokens-web`: the token module's Web Crypto backend next to @auth/core/jwt on
// each runtime it ships to: Node, Deno, Bun and workerd (the registry's builds, from
// e2e/runtime-tools). bench/web-token.mjs is bundled for a runtime without node:crypto (the
// "worker"/"browser" export conditions: jwe-web.ts, and Auth.js's own web variants) and the same
// code runs on each.
//
// workerd stops its clocks while a request runs (a Spectre defence), so code cannot time itself
// there: a worker (`wrangler dev`, no compatibility flags) runs OPS_PER_REQUEST operations per
// request and Node times the requests, interleaved as everywhere else, with an empty request
// (the round trip through wrangler's proxy, some tens of ms) in the same rounds; its time is
// subtracted from each side's before dividing by OPS_PER_REQUEST.
import { execFile, spawn } from "node:child_process"
import { mkdtempSync, rmSync, writeFileSync } from "node:fs"
import { createServer } from "node:net"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { fileURLToPath } from "node:url"
import { promisify } from "node:util"
import { installRuntimeTools, toolBin, toolsDir } from "../e2e/runtime-tools/install.mjs"
import { fmt, printTable, ratio, runScenario } from "./harness.mjs"

const run = promisify(execFile)
const OPS_PER_REQUEST = 200
// The harness reads its knobs from the environment; Deno asks for them by name.
const BENCH_ENV = "BENCH_ROUNDS,BENCH_BATCH_MS,BENCH_WARMUP_MS,BENCH_DB_MS"

/** A script that prints the results as JSON (Node, Deno, Bun). */
const SELF_TIMED = `import { benchWebTokens } from "./web-token.mjs"
console.log(JSON.stringify(await benchWebTokens()))`

/** A worker that runs `n` operations of one contender of one scenario per request. */
const WORKER = `import { webTokenScenarios } from "./web-token.mjs"
let scenarios
export default {
  async fetch(request) {
    const params = new URL(request.url).searchParams
    scenarios ??= webTokenScenarios()
    const names = Object.keys(await scenarios)
    const op = (await scenarios)[params.get("scenario")]?.[params.get("contender")]
    if (!op) return Response.json(names)
    for (let i = 0, n = Number(params.get("n")); i < n; i++) await op()
    return new Response("done")
  },
}`

async function bundle(dir, name, contents) {
  const { build } = await import(join(toolsDir, "node_modules/esbuild/lib/main.js"))
  const outfile = join(dir, name)
  await build({
    stdin: { contents, resolveDir: fileURLToPath(new URL(".", import.meta.url)) },
    bundle: true,
    format: "esm",
    platform: "neutral",
    mainFields: ["module", "main"],
    conditions: ["worker", "browser"],
    outfile,
    logLevel: "error",
  })
  return outfile
}

const SELF_TIMED_RUNTIMES = [
  ["Node", (file) => [process.execPath, [file]]],
  [
    "Deno",
    (file) => [
      toolBin("deno"),
      ["run", "--no-lock", "--no-config", `--allow-env=${BENCH_ENV}`, file],
    ],
  ],
  ["Bun", (file) => [toolBin("bun"), [file]]],
]

async function version(bin, env, cwd) {
  const { stdout } = await run(bin, ["--version"], { env, cwd })
  // x.y.z, or workerd's release date
  return /\d+\.\d+\.\d+|\d{4}-\d\d-\d\d/.exec(stdout)?.[0] ?? "?"
}

function freePort() {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once("error", reject)
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address()
      server.close(() => resolve(port))
    })
  })
}

/** `wrangler dev` of the worker under the registry's Node 22; resolves to its URL and a stop. */
async function startWorker(dir, file) {
  const [port, inspector] = [await freePort(), await freePort()]
  const args = [toolBin("wrangler"), "dev", file, "--ip", "127.0.0.1", "--port", String(port)]
  args.push("--inspector-port", String(inspector), "--compatibility-date", "2025-09-01")
  args.push("--show-interactive-dev-session=false")
  const child = spawn(toolBin("node"), args, {
    cwd: dir,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: {
      ...process.env,
      WRANGLER_SEND_METRICS: "false",
      CLOUDFLARE_CF_FETCH_ENABLED: "false",
      XDG_CONFIG_HOME: join(dir, ".config"),
      PATH: `${join(toolsDir, "node_modules/.bin")}:${process.env.PATH ?? ""}`,
    },
  })
  let log = ""
  for (const stream of [child.stdout, child.stderr]) stream.on("data", (c) => (log += c))
  const stop = () => child.exitCode === null && process.kill(-child.pid, "SIGTERM")
  const url = `http://127.0.0.1:${port}/`
  for (const deadline = Date.now() + 60_000; ; ) {
    const response = await fetch(url).catch(() => null)
    if (response?.ok) return { url, scenarios: await response.json(), stop }
    if (child.exitCode !== null || Date.now() > deadline) {
      stop()
      throw new Error(`wrangler dev did not start:\n${log}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
}

async function benchWorkerd(dir) {
  const file = await bundle(dir, "web-token.worker.mjs", WORKER)
  const worker = await startWorker(dir, file)
  try {
    const results = {}
    for (const scenario of worker.scenarios) {
      const request = (contender, n) => async () => {
        const query = new URLSearchParams({ scenario, contender, n: String(n) })
        const response = await fetch(`${worker.url}?${query}`)
        if ((await response.text()) !== "done") throw new Error(`${scenario}: ${response.status}`)
      }
      const r = await runScenario({
        latchkey: request("latchkey", OPS_PER_REQUEST),
        authjs: request("authjs", OPS_PER_REQUEST),
        empty: request("latchkey", 0),
      })
      // Requests per second → seconds per request, less the empty request's, → ops per second.
      const opsPerSecond = (rate) => OPS_PER_REQUEST / Math.max(1 / rate - 1 / r.empty, 1e-9)
      results[scenario] = { latchkey: opsPerSecond(r.latchkey), authjs: opsPerSecond(r.authjs) }
    }
    return results
  } finally {
    worker.stop()
  }
}

export async function benchTokensOffNode() {
  await installRuntimeTools()
  const dir = mkdtempSync(join(tmpdir(), "latchkey-bench-"))
  try {
    writeFileSync(join(dir, "package.json"), '{ "type": "module" }\n')
    const file = await bundle(dir, "web-token.bundle.mjs", SELF_TIMED)
    const env = { ...process.env, DENO_NO_UPDATE_CHECK: "1", DENO_DIR: join(dir, ".deno") }
    const byRuntime = []
    for (const [name, command] of SELF_TIMED_RUNTIMES) {
      const [bin, args] = command(file)
      const { stdout } = await run(bin, args, { env, cwd: dir })
      byRuntime.push([`${name} ${await version(bin, env, dir)}`, JSON.parse(stdout)])
    }
    const workerd = await version(join(toolsDir, "node_modules/.bin/workerd"), env, dir)
    byRuntime.push([`workerd ${workerd} (wrangler dev)`, await benchWorkerd(dir)])

    const rows = byRuntime.flatMap(([label, results]) =>
      Object.entries(results).map(([scenario, r]) => [
        label,
        scenario,
        fmt(r.latchkey),
        fmt(r.authjs),
        ratio(r.latchkey, r.authjs),
      ]),
    )
    printTable(
      "Token module on the Web Crypto backend, per runtime (ops/s, median of interleaved batches)",
      ["runtime", "scenario", "Latchkey (Web Crypto)", "@auth/core (web)", "Latchkey ÷ Auth.js"],
      rows,
    )
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
