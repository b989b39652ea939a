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
 *
 * Needs `valgrind` (Debian's package); about 8 minutes on 2 cores with the defaults. Not part of
 * `npm run bench`. Add `BENCH_PAGE_NODE_ARGS=--perf-basic-prof` to name the JIT code in the dumps
 * (`/tmp/perf-<pid>.map`); the dumps are kept in the printed directory.
 */
import { execFileSync, spawn } from "node:child_process"
import { mkdtempSync, readdirSync, readFileSync } from "node:fs"
import http from "node:http"
import { tmpdir } from "node:os"
import { join } from "node:path"
import { encode } from "@latchkey/core/jwt"
import { ensureQwikApps, serverEntry } from "./qwik-apps/build.mjs"
import { ensureQwik2Apps, serverEntry2 } from "./qwik-apps/v2/build.mjs"

const SECRET = "bench-secret-0123456789abcdef0123456789abcdef"
const COOKIE = "authjs.session-token"
const WARM = Number(process.env.BENCH_WARM ?? 3000)
const COUNT = Number(process.env.BENCH_COUNT ?? 1000)
const qwik1 = process.argv[2] === "qwik"
const variants = qwik1 ? ["none", "loader", "latchkey", "authjs"] : ["none", "loader", "latchkey"]
const entryOf = qwik1 ? serverEntry : serverEntry2

/** `count` GETs of `/`, one at a time on one kept-alive connection. */
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
  const out = join(dir, variant)
  const child = spawn(
    "valgrind",
    [
      "--tool=callgrind",
      `--callgrind-out-file=${out}.%p`,
      // V8's generated code: let valgrind see code written at run time.
      "--smc-check=all-non-file",
      process.execPath,
      // One thread: no background compiler or GC threads moving work in and out of the count.
      "--single-threaded",
      ...(process.env.BENCH_PAGE_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? []),
      entryOf(variant),
    ],
    {
      env: { PATH: process.env.PATH, NODE_ENV: "production", AUTH_SECRET: SECRET, PORT: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    },
  )
  let output = ""
  const url = await new Promise((resolve, reject) => {
    const onData = (chunk) => {
      output += chunk
      const found = /listening on (http:\/\/\S+)/.exec(output)?.[1]
      if (found) resolve(found)
    }
    child.stdout.on("data", onData)
    child.stderr.on("data", onData)
    child.once("exit", (code) => reject(new Error(`${variant} exited (${code})\n${output}`)))
  })
  await requests(url, cookie, WARM)
  execFileSync("callgrind_control", ["--zero", String(child.pid)], { stdio: "ignore" })
  await requests(url, cookie, COUNT)
  execFileSync("callgrind_control", ["--dump", String(child.pid)], { stdio: "ignore" })
  const exited = new Promise((resolve) => child.once("exit", resolve))
  child.kill("SIGTERM")
  await exited
  const dump = readdirSync(dir).find((f) => f.startsWith(`${variant}.`) && f.endsWith(".1"))
  if (!dump) throw new Error(`${variant}: callgrind wrote no dump in ${dir}`)
  return totalOf(join(dir, dump)) / COUNT
}

qwik1 ? ensureQwikApps() : ensureQwik2Apps()
const token = await encode({
  token: { name: "Ada Lovelace", email: "ada@example.com", picture: null, sub: "user-1" },
  secret: SECRET,
  salt: COOKIE,
})
const cookie = `${COOKIE}=${token}`
const dir = mkdtempSync(join(tmpdir(), "latchkey-instructions-"))
console.log(
  `${qwik1 ? "Qwik 1" : "Qwik 2"} page, signed in: instructions per request (callgrind, ${WARM} requests to warm up, ${COUNT} counted); dumps in ${dir}`,
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
