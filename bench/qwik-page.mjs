// Page requests through a real Qwik City server: the same minimal app (`bench/qwik-apps`) built
// with @latchkey/qwik, with @auth/qwik, and with no auth at all, each served by Qwik City's Node
// middleware in its own child process on loopback and driven by autocannon, one server at a time
// (on a small machine the load generator and the server already share the cores).
//
// `BENCH_PAGE_SECONDS` (default 5) is the measured time per server and scenario, after a warm-up
// that lasts until the server's rate stops rising (at most 20 s). `BENCH_PAGE_NODE_ARGS` is passed
// to the server processes (e.g. "--cpu-prof --cpu-prof-dir=/tmp/prof").
import { spawn } from "node:child_process"
import os from "node:os"
import { encode } from "@latchkey/core/jwt"
import autocannon from "autocannon"
import { fmt, printTable, ratio } from "./harness.mjs"
import { ensureQwikApps, serverEntry } from "./qwik-apps/build.mjs"
import { ensureQwik2Apps, serverEntry2 } from "./qwik-apps/v2/build.mjs"
import { bindingBreakdown } from "./qwik-breakdown.mjs"

const SECRET = "bench-secret-0123456789abcdef0123456789abcdef"
const COOKIE = "authjs.session-token"
const EMAIL = "ada@example.com"
const ROUNDS = Math.max(1, Math.round(Number(process.env.BENCH_PAGE_SECONDS ?? 5))) // 1 s each
const MAX_WARMUP_SECONDS = 20
const CONNECTIONS = 10

const NAMES = {
  latchkey: "Latchkey",
  authjs: "@auth/qwik",
  none: "no auth",
  loader: "session loader, no auth",
}

/** The session cookie of the signed-in scenario, minted as the core does. */
export async function signedInCookie() {
  const token = await encode({
    token: { name: "Ada Lovelace", email: EMAIL, picture: null, sub: "user-1" },
    secret: SECRET,
    salt: COOKIE,
  })
  return `${COOKIE}=${token}`
}

/**
 * Start a built variant on a free loopback port; resolves once it prints its URL. `launcher`
 * runs Node under another program (e.g. valgrind) and `nodeArgs` go to Node before
 * `BENCH_PAGE_NODE_ARGS`; such a server may need longer than `readyMs` to start.
 */
export function startServer(
  variant,
  entry = serverEntry(variant),
  { launcher = [], nodeArgs = [], readyMs = 15_000 } = {},
) {
  const node = [
    ...nodeArgs,
    ...(process.env.BENCH_PAGE_NODE_ARGS?.split(/\s+/).filter(Boolean) ?? []),
    entry,
  ]
  const [command, ...args] = [...launcher, process.execPath, ...node]
  const child = spawn(command, args, {
    // A small, explicit environment: both libraries read AUTH_* from it, so a stray AUTH_URL
    // in the caller's shell must not change what is measured.
    env: { PATH: process.env.PATH, NODE_ENV: "production", AUTH_SECRET: SECRET, PORT: "0" },
    stdio: ["ignore", "pipe", "pipe"],
  })
  let output = ""
  const ready = new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${variant}: no URL after ${readyMs / 1000} s\n${output}`)),
      readyMs,
    )
    const onData = (chunk) => {
      output += chunk
      const url = /listening on (http:\/\/\S+)/.exec(output)?.[1]
      if (url) {
        clearTimeout(timer)
        resolve(url)
      }
    }
    child.stdout.on("data", onData)
    child.stderr.on("data", onData)
    child.once("exit", (code) => {
      clearTimeout(timer)
      reject(new Error(`${variant}: server exited (${code}) before listening\n${output}`))
    })
  })
  return { variant, child, ready }
}

/** SIGTERM (the server exits cleanly, so `--cpu-prof` gets written), SIGKILL after 5 s. */
export async function stopServer({ child }) {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = new Promise((resolve) => child.once("exit", resolve))
  child.kill("SIGTERM")
  const timer = setTimeout(() => child.kill("SIGKILL"), 5_000)
  await exited
  clearTimeout(timer)
}

/** What the page says about the session: the email, "signed out" or "no auth". */
async function whoIsShown(url, cookie) {
  const res = await fetch(url, { headers: cookie ? { cookie } : {} })
  const html = await res.text()
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status}\n${html.slice(0, 500)}`)
  // Qwik 2 writes its own attributes before `id`.
  return /<p [^>]*\bid="who"[^>]*>([^<]*)</.exec(html)?.[1]
}

/**
 * The bench app's pages: the same component at the root and below it. `useSession` is declared in
 * `plugin@auth.ts`, at the root, so `/account/` is a page whose session comes from a loader
 * declared at another path, as on most pages of a real app (Qwik 2 gives such a loader its own
 * view of the request). Serving both also makes each server load a page's module during a request
 * before anything is measured, as every multi-page app does.
 */
const PAGES = ["/", "/account/"]
const BELOW_ROOT = PAGES[1]

/**
 * A loud failure unless every variant renders what it should on every page, with and without the
 * cookie. It also leaves each server having served each page.
 */
export async function verify(urls, cookie) {
  const expected = {
    latchkey: [EMAIL, "signed out"],
    authjs: [EMAIL, "signed out"],
    none: ["no auth", "no auth"],
    loader: [EMAIL, "signed out"],
  }
  for (const variant of Object.keys(urls)) {
    const [signedIn, signedOut] = expected[variant]
    for (const page of PAGES) {
      const url = new URL(page, urls[variant]).href
      const shown = [await whoIsShown(url, cookie), await whoIsShown(url)]
      if (shown[0] !== signedIn || shown[1] !== signedOut) {
        throw new Error(
          `${variant}: ${page} shows ${JSON.stringify(shown)} (with, without the session ` +
            `cookie), expected ${JSON.stringify([signedIn, signedOut])}`,
        )
      }
    }
  }
}

/** The server's CPU time so far (user + system, µs), from the bench server's own endpoint. */
async function serverCpu(url) {
  const { user, system } = await (await fetch(new URL("/__bench/cpu", url))).json()
  return user + system
}

async function load(url, cookie, seconds) {
  const cpuBefore = await serverCpu(url)
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: seconds,
    headers: cookie ? { cookie } : {},
  })
  const cpuAfter = await serverCpu(url)
  if (result.errors || result.timeouts || result.non2xx) {
    throw new Error(
      `${url}: ${result.errors} errors, ${result.timeouts} timeouts, ${result.non2xx} non-2xx`,
    )
  }
  return {
    rps: result.requests.total / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    // Server CPU per request (µs): unlike the rate, hardly moved by a neighbour's load.
    cpu: (cpuAfter - cpuBefore) / result.requests.total,
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}

/**
 * 1 s runs until the rate stops rising (two in a row within 3% of the best so far). A fixed 1 s
 * is not enough: @auth/qwik's server needs ~4,000 requests (5–10 s here) before its JIT settles,
 * and measuring it earlier would understate it by up to 40%.
 */
async function warmUp(url, cookie) {
  let best = 0
  let flat = 0
  for (let s = 0; s < MAX_WARMUP_SECONDS && flat < 2; s++) {
    const { rps } = await load(url, cookie, 1)
    flat = rps > best * 1.03 ? 0 : flat + 1
    best = Math.max(best, rps)
  }
}

/**
 * One scenario across the variants, in 1 s runs taken in alternating order (as `harness.mjs`
 * does), so a neighbour's burst or CPU drift hits every variant alike; each figure is the median
 * over its runs.
 */
async function scenario(urls, cookie, page = "/") {
  const variants = Object.keys(urls)
  const at = Object.fromEntries(variants.map((v) => [v, new URL(page, urls[v]).href]))
  for (const v of variants) await warmUp(at[v], cookie)
  const runs = Object.fromEntries(variants.map((v) => [v, []]))
  for (let round = 0; round < ROUNDS; round++) {
    for (const v of round % 2 ? [...variants].reverse() : variants) {
      runs[v].push(await load(at[v], cookie, 1))
    }
  }
  return Object.fromEntries(
    variants.map((v) => [
      v,
      {
        rps: median(runs[v].map((r) => r.rps)),
        p50: median(runs[v].map((r) => r.p50)),
        p99: median(runs[v].map((r) => r.p99)),
        cpu: median(runs[v].map((r) => r.cpu)),
        runs: runs[v],
      },
    ]),
  )
}

/**
 * `a`'s rate as a multiple of `b`'s, as the median of the per-round ratios: the two ran back to
 * back in each round, so a neighbour's burst moves both sides of each ratio alike. From server
 * CPU per request (`key` "cpu", the inverse of a saturated rate) or from requests/s.
 */
function pairedRatio(m, a, b, key) {
  const ratios = m[a].runs.map((run, i) =>
    key === "cpu" ? m[b].runs[i].cpu / run.cpu : run.rps / m[b].runs[i].rps,
  )
  return median(ratios)
}

/** Each scenario's rows of a results table, in the order `measure` ran them. */
const scenarioRows = (r, rows) => [
  ...rows("signed in", r.in),
  ...rows(`signed in, ${BELOW_ROOT}`, r.below),
  ...rows("no session cookie", r.out),
]

const BELOW_ROOT_NOTE =
  `"${BELOW_ROOT}" is the same page below the root, where \`useSession\` (declared in` +
  " plugin@auth.ts, at the root) is a loader of another path."

const loadAverage = () => os.loadavg()[0].toFixed(1)

const times = (x) => `${x.toFixed(2)}×`

/**
 * The scenarios (signed in at the root and below it, no session cookie) across the started
 * `servers`, after checking that each page shows what it should.
 */
async function measure(servers) {
  const cookie = await signedInCookie()
  // Should this process die without reaching `finally`, take the servers with it.
  const killAll = () => {
    for (const { child } of servers) if (child.exitCode === null) child.kill("SIGKILL")
  }
  process.once("exit", killAll)
  const r = {}
  try {
    const urls = {}
    for (const s of servers) urls[s.variant] = await s.ready
    await verify(urls, cookie)
    r.in = await scenario(urls, cookie)
    r.below = await scenario(urls, cookie, BELOW_ROOT)
    r.out = await scenario(urls)
  } finally {
    await Promise.all(servers.map(stopServer))
    process.removeListener("exit", killAll)
  }
  return r
}

// With the server saturated, 1/rate is its time per request: the difference to the app without
// auth is what auth adds to each page (plugin, loader, session in the page state).
const extra = (m, v) => {
  const d = 1000 / m[v].rps - 1000 / m.none.rps
  return `${d >= 0 ? "+" : "−"}${Math.abs(d).toFixed(2)}`
}

export async function benchQwikPages() {
  ensureQwikApps()
  const loadBefore = loadAverage()
  const variants = ["latchkey", "authjs", "none", "loader"]
  const r = await measure(variants.map((v) => startServer(v)))

  // autocannon records whole milliseconds; a median of two runs may end in .5.
  const ms = (x) => String(Math.round(x * 10) / 10)
  const shown = ["latchkey", "authjs", "none"]
  const row = (label, m) => [
    `${label}: requests/s`,
    ...shown.map((v) => fmt(m[v].rps)),
    ratio(m.latchkey.rps, m.authjs.rps),
    times(pairedRatio(m, "latchkey", "none", "rps")),
    times(pairedRatio(m, "authjs", "none", "rps")),
  ]
  const latencyRow = (label, m) => [
    `${label}: p50 / p99 ms`,
    ...shown.map((v) => `${ms(m[v].p50)} / ${ms(m[v].p99)}`),
    "",
    "",
    "",
  ]
  const costRow = (label, m) => [
    `${label}: ms/request over no auth`,
    extra(m, "latchkey"),
    extra(m, "authjs"),
    "",
    "",
    "",
    "",
  ]
  // The same ratio from server CPU per request (what a saturated server's rate is the inverse
  // of), which other work on the machine moves much less than the rate.
  const cpuRow = (label, m) => [
    `${label}: server CPU µs/request`,
    ...shown.map((v) => m[v].cpu.toFixed(0)),
    ratio(m.authjs.cpu, m.latchkey.cpu),
    times(pairedRatio(m, "latchkey", "none", "cpu")),
    times(pairedRatio(m, "authjs", "none", "cpu")),
  ]
  printTable(
    `Qwik City page GET / and ${BELOW_ROOT} (autocannon, ${CONNECTIONS} connections, after warm-up, median of ${ROUNDS} interleaved 1 s runs per server, one server loaded at a time)`,
    [
      "scenario",
      NAMES.latchkey,
      NAMES.authjs,
      NAMES.none,
      "Latchkey ÷ Auth.js",
      "Latchkey ÷ no auth",
      "Auth.js ÷ no auth",
    ],
    scenarioRows(r, (label, m) => [row, cpuRow, latencyRow, costRow].map((f) => f(label, m))),
  )
  console.log(
    '\n"no auth" is the same page without any auth plugin (it ignores the cookie). "ms/request over' +
      ' no auth" is 1/rate − 1/rate(no auth): the server time auth adds to each page. "server CPU' +
      " µs/request\" is the server process's CPU time over the requests it answered; its ratio" +
      " (no auth ÷ Latchkey) is the rate ratio a saturated server would show. Ratios to no auth" +
      " are medians of the per-round ratios (each round runs the servers back to back).",
  )
  console.log(`\n${BELOW_ROOT_NOTE}`)
  const loadAfter = loadAverage()
  await printBreakdown(r.in)
  console.log(`\nLoad average (1 min) before / after: ${loadBefore} / ${loadAfter}`)
  return r
}

/**
 * Where the signed-in page's extra time goes: Latchkey's parts timed in-process
 * (`qwik-breakdown.mjs`), Qwik's on the page (the "session loader, no auth" app against "no
 * auth", in server CPU), and the rest.
 */
async function printBreakdown(m, major = 1) {
  const parts = await bindingBreakdown({ cookie: await signedInCookie(), secret: SECRET, major })
  // Paired, as the ratios: the median of the per-round differences to no auth.
  const over = (v) => median(m[v].runs.map((run, i) => run.cpu - m.none.runs[i].cpu))
  const total = over("latchkey")
  const qwikLoader = over("loader")
  const rest = total - parts.core - parts.onRequest - parts.loader - qwikLoader
  const us = (x) => `${x >= 0 ? "" : "−"}${Math.abs(x).toFixed(1)}`
  const share = (x) => `${((100 * x) / m.latchkey.cpu).toFixed(0)}%`
  printTable(
    `Where a signed-in Qwik ${major} page's time goes (Latchkey over no auth, server CPU µs per request; page rows: median of the per-round differences)`,
    ["part", "µs/request", "share of the page", "measured"],
    [
      [
        "core session read (`getSession`: cookie, token opened once per process, claims, callbacks)",
        us(parts.core),
        share(parts.core),
        "in-process",
      ],
      [
        "binding `onRequest` beyond the core read (config QRL, env defaults, cookie check, `sharedMap`)",
        us(parts.onRequest),
        share(parts.onRequest),
        "in-process",
      ],
      ["binding `useSession` loader body", us(parts.loader), share(parts.loader), "in-process"],
      [
        "Qwik: a `routeLoader$` and its session serialised into the page",
        us(qwikLoader),
        share(qwikLoader),
        `page: "${NAMES.loader}" − "no auth"`,
      ],
      [
        "rest (Qwik calling the plugin middleware, GC of the above, noise)",
        us(rest),
        share(rest),
        "page total − the parts above",
      ],
      ["**total over no auth**", us(total), share(total), 'page: Latchkey − "no auth"'],
    ],
  )
  console.log(
    `\nThe page without auth costs ${m.none.cpu.toFixed(0)} µs of server CPU; with Latchkey, signed in, ${m.latchkey.cpu.toFixed(0)} µs.` +
      ` The core read above is for a cookie this process has read before (its token opened once);` +
      ` the first read of a cookie costs ${parts.coreFirstRead.toFixed(1)} µs in the core (JWE opened).`,
  )
}

/**
 * The same page on Qwik 2 (`bench/qwik-apps/v2`: Vite 8, `@qwik.dev/router`), with
 * `@latchkey/qwik2`, without auth, and with the session loader but no auth, measured and broken
 * down as on Qwik 1. There is no `@auth/qwik` for Qwik 2.
 */
export async function benchQwik2Pages() {
  ensureQwik2Apps()
  const loadBefore = loadAverage()
  const variants = ["latchkey", "none", "loader"]
  const r = await measure(variants.map((v) => startServer(v, serverEntry2(v))))
  const ms = (x) => String(Math.round(x * 10) / 10)
  // Ratios to no auth as on Qwik 1: medians of the per-round ratios, by rate and by server CPU.
  const rows = (label, m) => [
    [
      `${label}: requests/s`,
      ...variants.map((v) => fmt(m[v].rps)),
      times(pairedRatio(m, "latchkey", "none", "rps")),
      times(pairedRatio(m, "loader", "none", "rps")),
    ],
    [
      `${label}: server CPU µs/request`,
      ...variants.map((v) => m[v].cpu.toFixed(0)),
      times(pairedRatio(m, "latchkey", "none", "cpu")),
      times(pairedRatio(m, "loader", "none", "cpu")),
    ],
    [`${label}: p50 / p99 ms`, ...variants.map((v) => `${ms(m[v].p50)} / ${ms(m[v].p99)}`), "", ""],
    [`${label}: ms/request over no auth`, extra(m, "latchkey"), "", extra(m, "loader"), "", ""],
  ]
  printTable(
    `Qwik 2 page GET / and ${BELOW_ROOT} (autocannon, ${CONNECTIONS} connections, after warm-up, median of ${ROUNDS} interleaved 1 s runs per server, one server loaded at a time)`,
    [
      "scenario",
      NAMES.latchkey,
      NAMES.none,
      NAMES.loader,
      "Latchkey ÷ no auth",
      "loader ÷ no auth",
    ],
    scenarioRows(r, rows),
  )
  console.log(`\n${BELOW_ROOT_NOTE}`)
  // Other work on the machine moves these figures: say how busy it was.
  const loadAfter = loadAverage()
  await printBreakdown(r.in, 2)
  console.log(`\nLoad average (1 min) before / after: ${loadBefore} / ${loadAfter}`)
  return r
}
