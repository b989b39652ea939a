#!/usr/bin/env node
/**
 * `npm run test:e2e`: the browser tests' two projects (`e2e/vitest.config.ts`) side by side, in
 * two Vitest processes: the demo's files and the fixture apps' share nothing but the machine, and
 * while one waits on a browser or a server the other builds. Each writes its JSON report
 * (`.tmp/e2e-<project>.json`); the exit code is the worse of the two. `E2E_PART` tells each
 * global setup what its project needs (the demo server, or the packed packages).
 */
import { spawn } from "node:child_process"
import { mkdirSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { buildForE2e } from "../e2e/build-packages.mjs"

const root = fileURLToPath(new URL("..", import.meta.url))
mkdirSync(`${root}.tmp`, { recursive: true })
const vitest = fileURLToPath(new URL("../node_modules/vitest/vitest.mjs", import.meta.url))
const extra = process.argv.slice(2)

function runProject(project, env) {
  const args = [vitest, "run", "--config", "e2e/vitest.config.ts", "--project", project]
  args.push("--reporter=default", "--reporter=json")
  args.push(`--outputFile.json=../.tmp/e2e-${project}.json`, ...extra)
  const child = spawn(process.execPath, args, {
    cwd: root,
    env: { ...process.env, ...env, E2E_PART: project },
    stdio: "inherit",
  })
  return new Promise((resolve) => {
    child.on("exit", (code, signal) => resolve(code ?? (signal ? 1 : 0)))
  })
}

const started = Date.now()
// The builds first, once (`npm test` has built everything already): then neither process builds.
if (!process.env.E2E_SKIP_BUILD) buildForE2e()
const codes = await Promise.all([
  runProject("demo", { E2E_SKIP_BUILD: "1" }),
  runProject("apps", { E2E_SKIP_BUILD: "1" }),
])
console.log(
  `e2e: demo ${codes[0] === 0 ? "passed" : "FAILED"}, apps ${codes[1] === 0 ? "passed" : "FAILED"} in ${Math.round((Date.now() - started) / 1000)} s`,
)
process.exit(Math.max(...codes))
