#!/usr/bin/env node
/**
 * `npm test`'s suites, once the checks and the build have passed, in two lanes side by side:
 * the unit tests, the docs site and `init`'s browser tests in one; the demo's and the fixture
 * apps' browser tests in the other. Each lane takes 10–12 minutes on 2 busy cores, and much of
 * that waits on databases, servers, installs and the browser, so the two share the CPU well:
 * one suite after another took about 17 minutes of CI.
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
