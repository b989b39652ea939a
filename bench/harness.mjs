// A small interleaved benchmark harness. Each scenario runs its contenders in alternating
// batches within one process, so drift in CPU frequency, GC or a noisy neighbour hits all of
// them alike; the reported figure is the median batch rate. Web APIs only (performance.now):
// bench/runtimes.mjs bundles it to run on Deno and Bun too.

const env = globalThis.process?.env ?? {}
const ROUNDS = Number(env.BENCH_ROUNDS ?? 15)
const BATCH_MS = Number(env.BENCH_BATCH_MS ?? 25)
// A server runs hot: measure steady state, after V8 has tiered the code up, not the first
// few hundred calls through the interpreter.
const WARMUP_MS = Number(env.BENCH_WARMUP_MS ?? 750)

async function warmUp(fn) {
  const end = performance.now() + WARMUP_MS
  while (performance.now() < end) for (let i = 0; i < 16; i++) await fn()
}

async function timeBatch(fn, n) {
  const start = performance.now()
  for (let i = 0; i < n; i++) await fn()
  return (performance.now() - start) / 1000
}

/** Pick a batch size that takes about BATCH_MS. */
async function calibrate(fn) {
  let n = 1
  for (;;) {
    const seconds = await timeBatch(fn, n)
    if (seconds * 1000 >= BATCH_MS / 4 || n >= 1 << 20) {
      return Math.max(1, Math.round((n * BATCH_MS) / 1000 / Math.max(seconds, 1e-6)))
    }
    n *= 4
  }
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b)
  const m = s.length >> 1
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2
}

/**
 * Run one scenario: `contenders` maps a name to an async or sync operation. Returns ops/s
 * medians by name.
 */
export async function runScenario(contenders) {
  const { medians } = await runRounds(contenders)
  return medians
}

/**
 * As runScenario, plus each round's rates, so a caller can take the median of same-round
 * ratios (a neighbour's burst during one round moves both contenders of that round alike).
 */
export async function runRounds(contenders) {
  const names = Object.keys(contenders)
  const sizes = {}
  for (const name of names) {
    await contenders[name]() // fail fast
    await warmUp(contenders[name])
    sizes[name] = await calibrate(contenders[name])
  }
  const rates = Object.fromEntries(names.map((n) => [n, []]))
  for (let round = 0; round < ROUNDS; round++) {
    const order = round % 2 ? [...names].reverse() : names
    for (const name of order) {
      const seconds = await timeBatch(contenders[name], sizes[name])
      rates[name].push(sizes[name] / seconds)
    }
  }
  return { medians: Object.fromEntries(names.map((n) => [n, median(rates[n])])), rates }
}

/** Median over rounds of `a`'s rate ÷ `b`'s rate in the same round. */
export const roundRatio = (rates, a, b) => median(rates[a].map((rate, i) => rate / rates[b][i]))

export const fmt = (opsPerSecond) =>
  opsPerSecond >= 1e5
    ? `${Math.round(opsPerSecond / 1000)}k`
    : opsPerSecond >= 1e3
      ? `${(opsPerSecond / 1000).toFixed(1)}k`
      : opsPerSecond.toFixed(0)

export const ratio = (a, b) => (a && b ? `${(a / b).toFixed(1)}×` : "–")

/** Print a Markdown table (so it can go straight into the README). */
export function printTable(title, header, rows) {
  console.log(`\n### ${title}\n`)
  console.log(`| ${header.join(" | ")} |`)
  console.log(`|${header.map((_, i) => (i === 0 ? "---" : "---:")).join("|")}|`)
  for (const row of rows) console.log(`| ${row.join(" | ")} |`)
}

const LATENCY_MS = Number(env.BENCH_DB_MS ?? 3000)

/**
 * Sequential calls for BENCH_DB_MS (default 3 s) after 200 warm-up calls, each one timed:
 * requests/s and the per-call p50/p99 in ms.
 */
export async function measureLatency(fn) {
  for (let i = 0; i < 200; i++) await fn()
  const { calls, seconds, p50, p99 } = await timeCalls(fn, LATENCY_MS)
  return { rps: calls / seconds, p50, p99 }
}

/** Sequential calls of `fn` for `ms`, each one timed: how many, how long, and their p50/p99 in ms. */
export async function timeCalls(fn, ms) {
  const latencies = []
  const start = performance.now()
  const end = start + ms
  while (performance.now() < end) {
    const t = performance.now()
    await fn()
    latencies.push(performance.now() - t)
  }
  const seconds = (performance.now() - start) / 1000
  latencies.sort((a, b) => a - b)
  const pct = (p) =>
    latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]
  return { calls: latencies.length, seconds, p50: pct(50), p99: pct(99) }
}
