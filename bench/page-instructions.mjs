#!/usr/bin/env node
/**
 * The page bench's servers counted in CPU instructions instead of seconds: each built server runs
 * under Valgrind's callgrind, is warmed up, has its counters zeroed, serves `count` signed-in
 * requests one at a time, and is dumped; the instructions per request are the dump's total ÷
 * `count`. The count leaves out the load generator and the rest of the machine, but not V8:
 * its compiler and garbage collector decide differently from one process to the next, so
 * two runs of the same builds differed by up to 5%. Run it several times, and split a
 * difference with the dumps (below) rather than read it from one total. The servers run side
 * by side.
 *
 *   node bench/page-instructions.mjs            # Qwik 2: no auth, loader app, Latchkey
 *   node bench/page-instructions.mjs qwik       # the Qwik 1 builds
 *   BENCH_WARM=3000 BENCH_COUNT=1000 node bench/page-instructions.mjs
 *   BENCH_PATH=/account/ node bench/page-instructions.mjs   # the page below the root
 *
 * Needs `valgrind` (Debian's package); about 8 minutes on 2 cores with the defaults. Not part of
 * `npm run bench`. Add `BENCH_PAGE_NODE_ARGS=--perf-basic-prof` to name the JIT code in the dumps
 * (`/tmp/perf-<pid>.map`); the dumps are kept in the printed directory.
 */
import { execFileSync } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync } from "node:fs"
import http from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { ensureQwikApps, serverEntry } from "./qwik-apps/build.mjs"
import { ensureQwik2Apps, serverEntry2 } from "./qwik-apps/v2/build.mjs"
import { signedInCookie, startServer, stopServer, verify } from "./qwik-page.mjs"

const WARM = Number(process.env.BENCH_WARM ?? 3000)
const COUNT = Number(process.env.BENCH_COUNT ?? 1000)
const PATH = process.env.BENCH_PATH ?? "/"
const qwik1 = process.argv[2] === "qwik"
const variants = qwik1 ? ["none", "loader", "latchkey", "authjs"] : ["none", "loader", "latchkey"]
const entryOf = qwik1 ? serverEntry : serverEntry2

/** `count` GETs of `url`, one at a time on one kept-alive connection. */
async function requests(url, cookie, count) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 })
  const get = () =>
    new Promise((resolve, reject) => {
      http
        .get(url, { agent, headers: { cookie } }, (res) => res.resume().on("end", resolve))
        .on("error", reject)
    })
  for (let i = 0; i < count; i++) await get()
  agent.destroy()
}

/** Total instructions (`Ir`) of a callgrind dump. */
function totalOf(dump) {
  const line = readFileSync(dump, "utf8").match(/^(?:summary|totals): (\d+)/m)
  if (!line) throw new Error(`no totals in ${dump}`)
  return Number(line[1])
}

async function instructionsPerRequest(variant, cookie, dir) {
  const server = startServer(variant, entryOf(variant), {
    launcher: [
      "valgrind",
      "--tool=callgrind",
      `--callgrind-out-file=${join(dir, variant)}.%p`,
      // V8's generated code: let valgrind see code written at run time.
      "--smc-check=all-non-file",
    ],
    // One thread: no background compiler or GC threads moving work in and out of the count.
    nodeArgs: ["--single-threaded"],
    // Under valgrind a server takes tens of seconds to start.
    readyMs: 600_000,
  })
  const root = await server.ready
  const url = new URL(PATH, root).href
  const pid = String(server.child.pid)
  await verify({ [variant]: root }, cookie)
  await requests(url, cookie, WARM)
  execFileSync("callgrind_control", ["--zero", pid], { stdio: "ignore" })
  await requests(url, cookie, COUNT)
  execFileSync("callgrind_control", ["--dump", pid], { stdio: "ignore" })
  await stopServer(server)
  const dump = readdirSync(dir).find((f) => f.startsWith(`${variant}.`) && f.endsWith(".1"))
  if (!dump) throw new Error(`${variant}: callgrind wrote no dump in ${dir}`)
  return totalOf(join(dir, dump)) / COUNT
}

qwik1 ? ensureQwikApps() : ensureQwik2Apps()
const cookie = await signedInCookie()
const dir = mkdtempSync(join(tmpdir(), "latchkey-instructions-"))
console.log(
  `${qwik1 ? "Qwik 1" : "Qwik 2"} page ${PATH}, signed in: instructions per request (callgrind, ${WARM} requests to warm up, ${COUNT} counted); dumps in ${dir}`,
)
const counts = Object.fromEntries(
  await Promise.all(variants.map(async (v) => [v, await instructionsPerRequest(v, cookie, dir)])),
)
for (const v of variants) {
  const ratio = counts.none / counts[v]
  console.log(
    `  ${v.padEnd(9)} ${Math.round(counts[v]).toLocaleString("en").padStart(11)}  no auth ÷ this ${ratio.toFixed(3)}×`,
  )
}
