#!/usr/bin/env node
// Prints the closing lines over every Vitest JSON report of this run: each failed test with the
// first lines of its message, the ten longest files, and "N passed, N failed". A CI that keeps
// only the last lines of a run still shows what failed and where, without rerunning it.
import { existsSync, readFileSync } from "node:fs"

let passed = 0
let failed = 0
let skipped = 0
const files = []
const failures = []
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
    const name = shortName(result.name)
    const seconds = ((result.endTime ?? 0) - (result.startTime ?? 0)) / 1000
    files.push({ name, seconds })
    // A file that failed outside any test (an import error, a failing hook) has a message of
    // its own and may count no failed test.
    if (result.status === "failed" && result.message)
      failures.push({ name, test: "(the file)", message: result.message })
    for (const test of result.assertionResults ?? []) {
      if (test.status === "failed")
        failures.push({
          name,
          test: test.fullName ?? test.title,
          message: test.failureMessages?.[0] ?? "",
        })
    }
  }
}

function shortName(path) {
  return path.replace(/^.*?\/(packages|e2e|docs|examples|scripts|bench)\//, "$1/")
}

/** The first lines of a failure: the error and where it was thrown, not the whole stack. */
function firstLines(message, count = 6) {
  return message
    .split("\n")
    .filter((line) => line.trim() !== "")
    .slice(0, count)
}

if (failures.length > 0) {
  console.log("failed:")
  for (const { name, test, message } of failures) {
    console.log(`  ${name} > ${test}`)
    for (const line of firstLines(message)) console.log(`      ${line}`)
  }
}
// Where a slow run spent its time, without rerunning it: the ten longest test files.
files.sort((a, b) => b.seconds - a.seconds)
for (const { name, seconds } of files.slice(0, 10))
  console.log(`  ${seconds.toFixed(0).padStart(5)} s  ${name}`)
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`)
process.exit(failed > 0 || failures.length > 0 ? 1 : 0)
