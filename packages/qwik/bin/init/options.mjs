// The flags of `npx latchkey init`, and the questions asked for the ones not given.
import { parseArgs } from "node:util"

export const METHODS = ["password", "passkey", "email", "github", "google", "oidc"]
export const SESSIONS = ["jwt", "pglite", "postgres", "d1"]
/** Methods that keep users, links or passkeys in the database: not with JWT-only sessions. */
export const DATABASE_METHODS = ["password", "passkey", "email"]
/** Methods whose mail init sends over SMTP (nodemailer: TCP sockets). */
export const MAIL_METHODS = ["password", "email"]

/**
 * Where the app runs: Qwik City's adapter for it (`npm run qwik add <adapter>`), how the build
 * starts there, and whether the runtime has a file system and TCP sockets (PGlite writes a
 * directory; `pg` and SMTP open sockets). The edge runtimes have neither.
 */
/**
 * @typedef {{ name: string; adapter: string; start: string; server: boolean; why?: string }}
 *   Target
 * @type {Record<"node" | "bun" | "deno" | "cloudflare-pages" | "vercel-edge" | "netlify", Target>}
 */
export const TARGETS = {
  node: {
    name: "Node",
    adapter: "node-server",
    start: "node server/entry.node-server",
    server: true,
  },
  bun: { name: "Bun", adapter: "bun", start: "bun server/entry.bun.js", server: true },
  deno: {
    name: "Deno",
    adapter: "deno",
    start: "deno run --allow-net --allow-read --allow-env server/entry.deno.js",
    server: false,
    // Seen running init's default app there: PGlite's NodeFS bundled with `path` as `undefined`.
    why: "Qwik City's Deno adapter bundles the server without Node's built-in modules, so PGlite's file system and the sockets of pg and SMTP are missing from that build",
  },
  "cloudflare-pages": {
    name: "Cloudflare Pages (workerd)",
    adapter: "cloudflare-pages",
    start: "npx wrangler pages dev ./dist",
    server: false,
    why: "workerd has no file system for PGlite and no TCP sockets for pg or SMTP",
  },
  "vercel-edge": {
    name: "Vercel Edge",
    adapter: "vercel-edge",
    start: "vercel deploy",
    server: false,
    why: "the Edge Runtime has no file system for PGlite and no TCP sockets for pg or SMTP",
  },
  netlify: {
    name: "Netlify Edge Functions",
    adapter: "netlify-edge",
    start: "netlify deploy",
    server: false,
    why: "Netlify's Edge Functions have no file system for PGlite and no TCP sockets for pg or SMTP",
  },
}

export const INIT_USAGE = `Usage: latchkey init [options]

  --methods <list>      sign-in methods, comma-separated: ${METHODS.join(",")} (default password)
  --sessions <kind>     session storage: jwt | pglite | postgres | d1 (default pglite; d1 on
                        Cloudflare Pages; jwt on Vercel Edge and Netlify)
  --target <runtime>    where the app runs: ${Object.keys(TARGETS).join(" | ")} (default node)
  --yes                 ask nothing: the flags given, defaults for the rest
  --force               overwrite files that differ from what init writes (default: show the diff)
  --dry-run             say what would change; change nothing
  --no-install          edit package.json but do not run the package manager
  --install-from <dir>  take @latchkey/* packages from the npm pack tarballs in <dir>
`

/** A refusal of the command line, printed with the usage. */
export class UsageError extends Error {}

/**
 * @typedef {{ methods?: string[]; sessions?: string; target?: string; yes: boolean;
 *   force: boolean; dryRun: boolean; install: boolean; installFrom?: string; help: boolean }}
 *   InitFlags
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
        target: { type: "string" },
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
  if (parsed.target !== undefined && !(parsed.target in TARGETS)) {
    throw new UsageError(`--target ${parsed.target}: use one of ${Object.keys(TARGETS).join(", ")}`)
  }
  return {
    methods,
    sessions: parsed.sessions,
    target: parsed.target,
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
 * The session storage when none is chosen: PGlite where there is a file system, else JWT.
 * @param {string} target
 */
export function defaultSessions(target) {
  if (target === "cloudflare-pages") return "d1"
  return TARGETS[/** @type {keyof typeof TARGETS} */ (target)]?.server === false ? "jwt" : "pglite"
}

/**
 * The methods, storage and target chosen, after the checks that need them together. On a
 * runtime without a file system or sockets, the refusal names the part that cannot run there.
 * @param {string[]} methods
 * @param {string} sessions
 * @param {string} [target]
 */
export function checkChoice(methods, sessions, target = "node") {
  const where = TARGETS[/** @type {keyof typeof TARGETS} */ (target)]
  if (sessions === "d1" && target !== "cloudflare-pages") {
    throw new UsageError(
      `--sessions d1 is Cloudflare's database, reached through the Pages binding: use it with --target cloudflare-pages`,
    )
  }
  if (!where.server) {
    if (sessions === "pglite") {
      throw new UsageError(
        `--sessions pglite cannot run on ${where.name}: ${where.why}. Use --sessions jwt (with github, google or oidc)${target === "cloudflare-pages" ? ", or --sessions d1" : ", or a database over HTTP (libSQL/Turso) through @latchkey/adapter-drizzle: see the deploying page"}`,
      )
    }
    if (sessions === "postgres") {
      throw new UsageError(
        `--sessions postgres cannot run on ${where.name}: ${where.why}. Use --sessions jwt (with github, google or oidc)${target === "cloudflare-pages" ? ", or --sessions d1" : ", or a database over HTTP (libSQL/Turso) through @latchkey/adapter-drizzle: see the deploying page"}`,
      )
    }
  }
  const needDatabase = methods.filter((m) => DATABASE_METHODS.includes(m))
  if (sessions === "jwt" && needDatabase.length > 0) {
    throw new UsageError(
      where.server
        ? `${needDatabase.join(", ")} keep accounts in a database: choose --sessions pglite or postgres (or drop ${needDatabase.join(", ")})`
        : target === "cloudflare-pages"
          ? `${needDatabase.join(", ")} keep accounts in a database: choose --sessions d1 (or drop ${needDatabase.join(", ")})`
          : `${needDatabase.join(", ")} keep accounts in a database, and init writes none that runs on ${where.name} (${where.why}): choose github, google or oidc, or set up libSQL with @latchkey/adapter-drizzle and mail over HTTP (resendMail) by hand, as the deploying page shows`,
    )
  }
  return { methods, sessions, target }
}

/**
 * Ask for what the flags left open, on a terminal.
 * @param {InitFlags} flags
 * @returns {Promise<{ methods: string[]; sessions: string; target: string }>}
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
    let target = flags.target
    while (!target) {
      const answer = await question(
        `Where will it run (${Object.keys(TARGETS).join(", ")}) [node]: `,
      )
      if (answer === "" || answer in TARGETS) target = answer || "node"
      else process.stdout.write(`use one of ${Object.keys(TARGETS).join(", ")}\n`)
    }
    let sessions = flags.sessions
    while (!sessions) {
      const fallback = defaultSessions(target)
      const answer = await question(`Sessions (${SESSIONS.join(", ")}) [${fallback}]: `)
      if (answer === "" || SESSIONS.includes(answer)) sessions = answer || fallback
      else process.stdout.write(`use one of ${SESSIONS.join(", ")}\n`)
    }
    return { methods, sessions, target }
  } finally {
    rl.close()
  }
}
