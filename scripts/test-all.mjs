#!/usr/bin/env node
/**
 * `npm test`'s suites, once the checks and the build have passed, in two lanes side by side:
 * the unit tests, the docs site and `init`'s browser tests in one; the demo's and the fixture
 * apps' browser tests in the other. Much of each lane waits on databases, servers, installs and
 * the browser, so the two share the CPU well. The split keeps them even: on a fresh clone on 2
 * cores (2026-12-07) the first took 1,277 s (unit 776, docs 34, init 467) and the second 1,049 s
 * (demo 416, apps 633), so init's per-target apps (about 70 s) moved to the apps project.
 * Ends with the count over every report and the ten longest files.
 */
import { spawnSync } from "node:child_process"
import { root, runLanes, suites } from "./test-lanes.mjs"

const lanes = [
  ["unit", "docs", "init"],
  ["demo", "apps"],
]
const code = await runLanes(lanes)
const reports = lanes.flat().map((name) => suites[name].report)
const summary = spawnSync(process.execPath, ["scripts/summarize-tests.mjs", ...reports], {
  cwd: root,
  stdio: "inherit",
})
process.exit(Math.max(code, summary.status ?? 1))
