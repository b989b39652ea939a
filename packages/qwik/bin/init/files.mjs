// Writing a file the way `npx latchkey init` promises: create it when absent, leave it when it
// already says the same, and when it differs (the user changed it) leave it and show the diff,
// unless --force.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join } from "node:path"

/**
 * @typedef {{ path: string; status: "created" | "unchanged" | "overwritten" | "kept";
 *   diff?: string }} FileResult
 */

/**
 * @param {string} dir the app
 * @param {string} path relative to the app
 * @param {string} content
 * @param {{ force: boolean; dryRun: boolean }} options
 * @returns {FileResult}
 */
export function writeFile(dir, path, content, { force, dryRun }) {
  const file = join(dir, path)
  if (!existsSync(file)) {
    if (!dryRun) {
      mkdirSync(dirname(file), { recursive: true })
      writeFileSync(file, content)
    }
    return { path, status: "created" }
  }
  const current = readFileSync(file, "utf8")
  if (current === content) return { path, status: "unchanged" }
  const diff = lineDiff(current, content, path)
  if (!force) return { path, status: "kept", diff }
  if (!dryRun) writeFileSync(file, content)
  return { path, status: "overwritten", diff }
}

/**
 * A diff from the file as it is (`-`) to what init would write (`+`), changed lines with two
 * lines of context. Longest common subsequence: these files are a few dozen lines.
 * @param {string} before
 * @param {string} after
 * @param {string} path
 */
export function lineDiff(before, after, path) {
  const a = before.split("\n")
  const b = after.split("\n")
  // lcs[i * width + j]: length of the longest common subsequence of a[i..] and b[j..].
  const width = b.length + 1
  const lcs = new Uint32Array((a.length + 1) * width)
  /** @param {number} i @param {number} j */
  function at(i, j) {
    return lcs[i * width + j] ?? 0
  }
  for (let i = a.length - 1; i >= 0; i--) {
    for (let j = b.length - 1; j >= 0; j--) {
      lcs[i * width + j] =
        a[i] === b[j] ? at(i + 1, j + 1) + 1 : Math.max(at(i + 1, j), at(i, j + 1))
    }
  }
  /** @type {[" " | "-" | "+", string][]} */
  const lines = []
  let i = 0
  let j = 0
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      lines.push([" ", a[i++] ?? ""])
      j++
    } else if (i < a.length && (j === b.length || at(i + 1, j) >= at(i, j + 1))) {
      lines.push(["-", a[i++] ?? ""])
    } else lines.push(["+", b[j++] ?? ""])
  }
  /** @param {number} k */
  function near(k) {
    return lines.slice(Math.max(0, k - 2), k + 3).some(([mark]) => mark !== " ")
  }
  const out = [`--- ${path} (yours)`, `+++ ${path} (latchkey init)`]
  let skipped = false
  lines.forEach(([mark, text], k) => {
    if (near(k)) {
      out.push(`${mark}${text}`)
      skipped = false
    } else if (!skipped) {
      out.push("@@")
      skipped = true
    }
  })
  return out.join("\n")
}
