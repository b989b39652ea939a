// `.env` gets AUTH_SECRET (and, for `vite dev` and `vite preview` on this machine, the trust of
// the browser's host) only when absent, and `.gitignore` gets `.env` (and PGlite's directory)
// only when it does not ignore them already. `.env` holds the secret: it is written owner-only
// (0600), never through a link that leaves the app, and never while git tracks it.
import { spawnSync } from "node:child_process"
import {
  chmodSync,
  closeSync,
  constants,
  existsSync,
  lstatSync,
  openSync,
  readFileSync,
  realpathSync,
  writeFileSync,
  writeSync,
} from "node:fs"
import { join, relative, sep } from "node:path"
import { parseEnv } from "node:util"
import { newSecret } from "../secret.mjs"

/** A `.env` init must not write the secret into; the message says what to do instead. */
export class EnvFileRefused extends Error {}

/**
 * The variables in `dir/.env` (or `name`; empty when there is none).
 * @param {string} dir
 * @param {string} [name]
 * @returns {Record<string, string | undefined>}
 */
export function readEnvFile(dir, name = ".env") {
  const file = join(dir, name)
  return existsSync(file) ? parseEnv(readFileSync(file, "utf8")) : {}
}

/**
 * The lines init adds to a `.env` that lacks them: the secret only. No AUTH_URL: `npm run dev`
 * (5173) and `npm run preview` (4173) serve on different ports, and a URL pinned to one sends
 * the other's sign-in to a server that is not running. No AUTH_TRUST_HOST either: the core
 * takes a loopback host as it is (a link to `localhost` cannot be an attacker's), and a `.env`
 * is not only read in development (Bun loads it in production too), where trusting any Host
 * header would let a request choose the host of the links Latchkey mails.
 * @type {[string, () => string, string][]}
 */
const WANTED = [
  [
    "AUTH_SECRET",
    newSecret,
    "# Encrypts sessions and signs links: keep it secret, one per environment.",
  ],
]

/** @param {string} dir @param {string} name the lines of WANTED that the file lacks */
function missingLines(dir, name) {
  const present = readEnvFile(dir, name)
  return WANTED.filter(([name]) => present[name] === undefined)
}

/**
 * Throws {@link EnvFileRefused} when init would have to write the secret into a `.env` it must
 * not: run before init writes anything, so a refusal leaves the app as it was.
 * @param {string} dir
 * @param {string} [name] `.env`, or `.dev.vars` (what `wrangler pages dev` reads)
 */
export function checkEnvFile(dir, name = ".env") {
  envFileTarget(dir, name)
  if (missingLines(dir, name).length > 0) refuseTracked(dir, name)
}

/**
 * Appends each missing variable to `.env` (or `name`); returns the names added (never the values).
 * @param {string} dir
 * @param {{ dryRun: boolean }} options
 * @param {string} [name]
 */
export function ensureEnv(dir, { dryRun }, name = ".env") {
  const file = envFileTarget(dir, name)
  const missing = missingLines(dir, name)
  if (missing.length > 0 && !dryRun) {
    refuseTracked(dir, name)
    appendSecretLines(
      file,
      missing.map(([name, value, comment]) => `${comment}\n${name}=${value()}`),
    )
  }
  return missing.map(([name]) => name)
}

/**
 * The file `dir/.env` (or `name`) stands for: itself, or the target of a link that stays in the
 * app. A link out of the app (the secret would land in another project's file, or a shared one)
 * and a dangling link (init would create a file wherever it points) are refused.
 * @param {string} dir
 * @param {string} [name]
 */
export function envFileTarget(dir, name = ".env") {
  const file = join(dir, name)
  let stat
  try {
    stat = lstatSync(file)
  } catch {
    return file
  }
  if (!stat.isSymbolicLink()) return file
  let target
  try {
    target = realpathSync(file)
  } catch {
    throw new EnvFileRefused(
      `${name} is a link to a file that does not exist: remove the link (or create its target in this app), then run init again`,
    )
  }
  const inside = relative(realpathSync(dir), target)
  if (inside === "" || inside.startsWith(`..${sep}`) || inside === ".." || inside.startsWith(sep)) {
    throw new EnvFileRefused(
      `${name} is a link to ${target}, outside this app: init writes AUTH_SECRET only into the app's own ${name}. Replace the link with a file, then run init again`,
    )
  }
  return target
}

/**
 * Refuses when git tracks `dir/.env` (or `name`): the secret would be committed with the next
 * commit.
 * @param {string} dir
 * @param {string} name
 */
function refuseTracked(dir, name) {
  const run = spawnSync("git", ["ls-files", "--error-unmatch", "--", name], {
    cwd: dir,
    stdio: "ignore",
  })
  // 0: tracked. Not a repository, no git installed, or untracked: nothing to protect.
  if (run.status === 0) {
    throw new EnvFileRefused(
      `${name} is tracked by git, so AUTH_SECRET would be committed. Stop tracking it and keep the file: ` +
        `\`git rm --cached ${name}\` and commit, then run init again (it adds ${name} to .gitignore). ` +
        "If a secret was ever committed in it, replace that secret",
    )
  }
}

/**
 * Appends lines to a file that holds a secret, readable by its owner only: created 0600, an
 * existing file made 0600 before the secret goes in. `O_NOFOLLOW`: `file` is the resolved
 * target, so a link swapped in meanwhile fails instead of being followed.
 * @param {string} file
 * @param {string[]} lines
 */
function appendSecretLines(file, lines) {
  const current = existsSync(file) ? readFileSync(file, "utf8") : ""
  const separator = current === "" || current.endsWith("\n") ? "" : "\n"
  const fd = openSync(
    file,
    constants.O_WRONLY | constants.O_APPEND | constants.O_CREAT | (constants.O_NOFOLLOW ?? 0),
    0o600,
  )
  try {
    if (process.platform !== "win32") chmodSync(file, 0o600)
    writeSync(fd, `${separator}${lines.join("\n")}\n`)
  } finally {
    closeSync(fd)
  }
}

/** Lines of `.gitignore` that already keep each entry out of git. */
const IGNORED_BY = {
  ".env": [".env", "/.env", ".env*", "/.env*", "*.env"],
  ".data/": [".data", ".data/", "/.data", "/.data/"],
  ".dev.vars": [".dev.vars", "/.dev.vars", ".dev.vars*", "/.dev.vars*"],
  ".wrangler/": [".wrangler", ".wrangler/", "/.wrangler", "/.wrangler/"],
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
