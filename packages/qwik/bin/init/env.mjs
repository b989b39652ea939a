// `.env` gets AUTH_SECRET (and the quick start's AUTH_URL) only when absent, and `.gitignore`
// gets `.env` (and PGlite's directory) only when it does not ignore them already.
import { existsSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { parseEnv } from "node:util"
import { newSecret } from "../secret.mjs"

/**
 * The variables in `dir/.env` (empty when there is none).
 * @param {string} dir
 * @returns {Record<string, string | undefined>}
 */
export function readEnvFile(dir) {
  const file = join(dir, ".env")
  return existsSync(file) ? parseEnv(readFileSync(file, "utf8")) : {}
}

/**
 * Appends each missing variable to `.env`; returns the names added (never the values).
 * @param {string} dir
 * @param {{ dryRun: boolean }} options
 */
export function ensureEnv(dir, { dryRun }) {
  const present = readEnvFile(dir)
  /** @type {[string, () => string][]} */
  const wanted = [
    ["AUTH_SECRET", newSecret],
    // The app's public URL; `npm run dev` serves on 5173. Set the real one in production.
    ["AUTH_URL", () => "http://localhost:5173"],
  ]
  const missing = wanted.filter(([name]) => present[name] === undefined)
  if (missing.length > 0 && !dryRun) {
    appendLines(
      join(dir, ".env"),
      missing.map(([name, value]) => `${name}=${value()}`),
    )
  }
  return missing.map(([name]) => name)
}

/** Lines of `.gitignore` that already keep each entry out of git. */
const IGNORED_BY = {
  ".env": [".env", "/.env", ".env*", "/.env*", "*.env"],
  ".data/": [".data", ".data/", "/.data", "/.data/"],
}

/**
 * Appends the entries `.gitignore` lacks; returns them.
 * @param {string} dir
 * @param {(keyof typeof IGNORED_BY)[]} entries
 * @param {{ dryRun: boolean }} options
 */
export function ensureGitignore(dir, entries, { dryRun }) {
  const file = join(dir, ".gitignore")
  const lines = existsSync(file)
    ? readFileSync(file, "utf8")
        .split("\n")
        .map((line) => line.trim())
    : []
  const missing = entries.filter((entry) => !IGNORED_BY[entry].some((l) => lines.includes(l)))
  if (missing.length > 0 && !dryRun) appendLines(file, missing)
  return missing
}

/** @param {string} file @param {string[]} lines */
function appendLines(file, lines) {
  const current = existsSync(file) ? readFileSync(file, "utf8") : ""
  const separator = current === "" || current.endsWith("\n") ? "" : "\n"
  writeFileSync(file, `${current}${separator}${lines.join("\n")}\n`)
}
