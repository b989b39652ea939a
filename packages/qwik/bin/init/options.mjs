// The flags of `npx latchkey init`, and the questions asked for the ones not given.
import { parseArgs } from "node:util"

export const METHODS = ["password", "passkey", "email", "github", "google", "oidc"]
export const SESSIONS = ["jwt", "pglite", "postgres"]
/** Methods that keep users, links or passkeys in the database: not with JWT-only sessions. */
export const DATABASE_METHODS = ["password", "passkey", "email"]

export const INIT_USAGE = `Usage: latchkey init [options]

  --methods <list>      sign-in methods, comma-separated: ${METHODS.join(",")} (default password)
  --sessions <kind>     session storage: jwt | pglite | postgres (default pglite)
  --yes                 ask nothing: the flags given, defaults for the rest
  --force               overwrite files that differ from what init writes (default: show the diff)
  --dry-run             say what would change; change nothing
  --no-install          edit package.json but do not run the package manager
  --install-from <dir>  take @latchkey/* packages from the npm pack tarballs in <dir>
`

/** A refusal of the command line, printed with the usage. */
export class UsageError extends Error {}

/**
 * @typedef {{ methods?: string[]; sessions?: string; yes: boolean; force: boolean;
 *   dryRun: boolean; install: boolean; installFrom?: string; help: boolean }} InitFlags
 */

/**
 * @param {string[]} args
 * @returns {InitFlags}
 */
export function parseInitArgs(args) {
  let parsed
  try {
    parsed = parseArgs({
      args,
      options: {
        methods: { type: "string" },
        sessions: { type: "string" },
        yes: { type: "boolean", short: "y", default: false },
        force: { type: "boolean", default: false },
        "dry-run": { type: "boolean", default: false },
        "no-install": { type: "boolean", default: false },
        "install-from": { type: "string" },
        help: { type: "boolean", short: "h", default: false },
      },
      strict: true,
      allowPositionals: false,
    }).values
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error))
  }
  const methods = parsed.methods === undefined ? undefined : parseMethods(parsed.methods)
  if (parsed.sessions !== undefined && !SESSIONS.includes(parsed.sessions)) {
    throw new UsageError(`--sessions ${parsed.sessions}: use one of ${SESSIONS.join(", ")}`)
  }
  return {
    methods,
    sessions: parsed.sessions,
    yes: parsed.yes === true,
    force: parsed.force === true,
    dryRun: parsed["dry-run"] === true,
    install: parsed["no-install"] !== true,
    installFrom: parsed["install-from"],
    help: parsed.help === true,
  }
}

/** @param {string} list */
export function parseMethods(list) {
  const methods = [
    ...new Set(
      list
        .split(",")
        .map((m) => m.trim().toLowerCase())
        .filter(Boolean),
    ),
  ]
  const unknown = methods.filter((m) => !METHODS.includes(m))
  if (unknown.length > 0) {
    throw new UsageError(`unknown sign-in method ${unknown.join(", ")}: use ${METHODS.join(", ")}`)
  }
  if (methods.length === 0) throw new UsageError("--methods names no sign-in method")
  return METHODS.filter((m) => methods.includes(m))
}

/**
 * The methods and storage chosen, after the checks that need both.
 * @param {string[]} methods
 * @param {string} sessions
 */
export function checkChoice(methods, sessions) {
  const needDatabase = methods.filter((m) => DATABASE_METHODS.includes(m))
  if (sessions === "jwt" && needDatabase.length > 0) {
    throw new UsageError(
      `${needDatabase.join(", ")} keep accounts in a database: choose --sessions pglite or postgres (or drop ${needDatabase.join(", ")})`,
    )
  }
  return { methods, sessions }
}

/**
 * Ask for what the flags left open, on a terminal.
 * @param {InitFlags} flags
 * @returns {Promise<{ methods: string[]; sessions: string }>}
 */
export async function ask(flags) {
  const { createInterface } = await import("node:readline")
  const rl = createInterface({ input: process.stdin, output: process.stdout })
  // Lines typed (or pasted) ahead of a question wait in the iterator; `rl.question` drops them.
  const lines = rl[Symbol.asyncIterator]()
  /** @param {string} prompt */
  async function question(prompt) {
    process.stdout.write(prompt)
    const next = await lines.next()
    if (next.done) throw new UsageError("no answer (input ended): pass --methods and --sessions")
    return String(next.value).trim()
  }
  try {
    let methods = flags.methods
    while (!methods) {
      const answer = await question(
        `Sign-in methods (${METHODS.join(", ")}), comma-separated [password]: `,
      )
      try {
        methods = parseMethods(answer || "password")
      } catch (error) {
        process.stdout.write(`${error instanceof Error ? error.message : error}\n`)
      }
    }
    let sessions = flags.sessions
    while (!sessions) {
      const answer = await question("Sessions (jwt, pglite, postgres) [pglite]: ")
      if (answer === "" || SESSIONS.includes(answer)) sessions = answer || "pglite"
      else process.stdout.write(`use one of ${SESSIONS.join(", ")}\n`)
    }
    return { methods, sessions }
  } finally {
    rl.close()
  }
}
