#!/usr/bin/env node
/**
 * Keeps the machine busy, to run the browser tests under load (CI must hold when the machine is
 * shared): `node scripts/cpu-burn.mjs [processes] [seconds]` starts `processes` busy processes
 * (default: twice the core count) that each spin for `seconds` (default 1800) and then exit by
 * themselves, even if this parent is killed. Ctrl-C (or SIGTERM to the parent) stops them all.
 *
 *   node scripts/cpu-burn.mjs 4 1800 & BURN=$!
 *   nice -n 0 npm run test:e2e; kill $BURN
 */
import { fork } from "node:child_process"
import { availableParallelism } from "node:os"

if (process.argv[2] === "--spin") {
  const deadline = Number(process.argv[3])
  let x = 0
  while (Date.now() < deadline) {
    for (let i = 0; i < 1e6; i++) x = (x * 31 + i) % 1_000_003
  }
  process.exit(x < 0 ? 1 : 0)
}

const processes = Number(process.argv[2] ?? availableParallelism() * 2)
const seconds = Number(process.argv[3] ?? 1800)
if (!(Number.isInteger(processes) && processes > 0 && seconds > 0)) {
  console.error("usage: node scripts/cpu-burn.mjs [processes] [seconds]")
  process.exit(2)
}
const deadline = Date.now() + seconds * 1000
const children = Array.from({ length: processes }, () =>
  fork(new URL(import.meta.url).pathname, ["--spin", String(deadline)], { stdio: "inherit" }),
)
console.log(
  `cpu-burn: ${processes} busy processes for ${seconds} s (pids ${children.map((c) => c.pid).join(" ")})`,
)
const stop = () => {
  for (const child of children) child.kill("SIGTERM")
  process.exit(0)
}
process.on("SIGINT", stop)
process.on("SIGTERM", stop)
let running = children.length
for (const child of children) child.on("exit", () => --running === 0 && process.exit(0))
