#!/usr/bin/env node
// Prints one closing line over every Vitest JSON report of this run ("N passed, N failed"),
// so a CI reading only the last lines sees the whole suite's count.
import { existsSync, readFileSync } from "node:fs"

let passed = 0
let failed = 0
let skipped = 0
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
}
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`)
process.exit(failed > 0 ? 1 : 0)
