#!/usr/bin/env node
// Prints one closing line over every Vitest JSON report of this run ("N passed, N failed"),
// so a CI reading only the last lines sees the whole suite's count.
import { existsSync, readFileSync } from "node:fs"

let passed = 0
let failed = 0
let skipped = 0
const files = []
for (const file of process.argv.slice(2)) {
  // A suite that wrote no report did not run: never let that read as "0 failed".
  if (!existsSync(file)) {
    console.error(`summarize-tests: no report at ${file}`)
    process.exit(1)
  }
  const report = JSON.parse(readFileSync(file, "utf8"))
  passed += report.numPassedTests ?? 0
  failed += report.numFailedTests ?? 0
  skipped += (report.numPendingTests ?? 0) + (report.numTodoTests ?? 0)
  for (const result of report.testResults ?? []) {
    const seconds = ((result.endTime ?? 0) - (result.startTime ?? 0)) / 1000
    files.push({
      name: result.name.replace(/^.*?\/(packages|e2e|docs|examples|scripts|bench)\//, "$1/"),
      seconds,
    })
  }
}
// Where a slow run spent its time, without rerunning it: the ten longest test files.
files.sort((a, b) => b.seconds - a.seconds)
for (const { name, seconds } of files.slice(0, 10))
  console.log(`  ${seconds.toFixed(0).padStart(5)} s  ${name}`)
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`)
process.exit(failed > 0 ? 1 : 0)
