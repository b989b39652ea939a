// `npx latchkey init`: set Latchkey up in the Qwik City app of the current directory, for the
// sign-in methods and session storage chosen (flags, or questions on a terminal). Idempotent: a
// second run changes nothing; a file the user changed is left alone (its diff shown) unless
// --force. Every step is a module of its own; this one runs them in order and reports.
import { spawnSync } from "node:child_process"
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join, relative, resolve, sep } from "node:path"
import { fileURLToPath } from "node:url"
import { addVitePlugin } from "../vite.mjs"
import { checkEnvFile, EnvFileRefused, ensureEnv, ensureGitignore, readEnvFile } from "./env.mjs"
import { writeFile } from "./files.mjs"
import {
  describeOutcome,
  importFromApp,
  MigrateError,
  pgliteDirOf,
  runMigrations,
} from "./migrate.mjs"
import {
  ask,
  checkChoice,
  defaultSessions,
  INIT_USAGE,
  parseInitArgs,
  TARGETS,
  UsageError,
} from "./options.mjs"
import { detectProject } from "./project.mjs"
import { filesFor, PGLITE_DIR, packagesFor } from "./templates.mjs"

/** This package's version: the @latchkey/* range written to package.json. */
function ownVersion() {
  // bin/init/ in @latchkey/qwik, dist/bin/init/ in @latchkey/qwik2.
  for (const up of ["../../package.json", "../../../package.json"]) {
    const file = fileURLToPath(new URL(up, import.meta.url))
    if (!existsSync(file)) continue
    const pkg = JSON.parse(readFileSync(file, "utf8"))
    if (typeof pkg.name === "string" && pkg.name.startsWith("@latchkey/")) return pkg.version
  }
  throw new Error("cannot find the package.json of @latchkey/qwik")
}

/**
 * The `npm pack` tarball of `name` in `dir` (`@latchkey/core` → `latchkey-core-<version>.tgz`).
 * @param {string} dir
 * @param {string} name
 */
function tarballOf(dir, name) {
  const prefix = `${name.replace(/^@/, "").replace("/", "-")}-`
  const match = readdirSync(dir)
    .filter((f) => f.startsWith(prefix) && f.endsWith(".tgz") && /^\d/.test(f.slice(prefix.length)))
    .sort()
    .at(-1)
  return match ? join(dir, match) : undefined
}

/**
 * Adds the missing dev dependencies to package.json; returns their names.
 * @param {string} dir
 * @param {Record<string, any>} pkg
 * @param {Record<string, string>} wanted
 * @param {{ dryRun: boolean; installFrom?: string }} options
 */
function addDependencies(dir, pkg, wanted, { dryRun, installFrom }) {
  const has = { ...pkg.dependencies, ...pkg.devDependencies }
  const missing = Object.keys(wanted).filter((name) => !(name in has))
  if (missing.length === 0) return missing
  /** @type {Record<string, string>} */
  const devDependencies = { ...pkg.devDependencies }
  for (const name of missing) {
    const tarball = installFrom && name.startsWith("@latchkey/") && tarballOf(installFrom, name)
    if (installFrom && name.startsWith("@latchkey/") && !tarball) {
      throw new UsageError(`--install-from ${installFrom}: no npm pack tarball of ${name} there`)
    }
    devDependencies[name] = tarball ? fileSpec(dir, tarball) : /** @type {string} */ (wanted[name])
  }
  // Sorted, as npm writes them.
  pkg.devDependencies = Object.fromEntries(
    Object.entries(devDependencies).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)),
  )
  if (!dryRun) {
    const text = readFileSync(join(dir, "package.json"), "utf8")
    const indent = /^(\s+)"/m.exec(text)?.[1] ?? "  "
    writeFileSync(join(dir, "package.json"), `${JSON.stringify(pkg, null, indent)}\n`)
  }
  return missing
}

/**
 * A `file:` dependency relative to the app, as npm writes one: an absolute path would name this
 * machine's directories in a file that is committed and read on other machines.
 * @param {string} dir
 * @param {string} tarball
 */
export function fileSpec(dir, tarball) {
  return `file:${relative(dir, tarball).split(sep).join("/")}`
}

/**
 * `npx latchkey generate --drizzle sqlite` with the app's own @latchkey/adapter-drizzle: the
 * schema file of the features plugin@auth.ts enables. Says what happened (or why it waits).
 * @param {string} dir
 */
async function generateDrizzleSchema(dir) {
  let cli
  try {
    cli = await importFromApp(dir, "@latchkey/adapter-drizzle/cli")
  } catch (error) {
    if (!(error instanceof MigrateError)) throw error
    return `skipped, ${error.message} (then \`npx latchkey generate --drizzle sqlite\`)`
  }
  /** @type {string[]} */
  const said = []
  const code = cli.runGenerate(["--drizzle", "sqlite"], {
    cwd: dir,
    out: (/** @type {string} */ line) => said.push(line),
    err: (/** @type {string} */ line) => said.push(line),
  })
  const first = said[0] ?? ""
  return code === 0 ? first : `not written: ${first.replace(/^latchkey generate: /, "")}`
}

/** @param {string} dir @param {string[]} names */
function notInstalled(dir, names) {
  return names.filter((name) => !existsSync(join(dir, "node_modules", name, "package.json")))
}

/** @param {string[]} args */
export async function main(args) {
  const dir = process.cwd()
  /** @param {string} line */
  function out(line) {
    process.stdout.write(`${line}\n`)
  }
  try {
    const flags = parseInitArgs(args)
    if (flags.help) {
      out(INIT_USAGE)
      return 0
    }
    const project = detectProject(dir)
    const asked =
      !flags.yes && process.stdin.isTTY && (!flags.methods || !flags.sessions || !flags.target)
        ? await ask(flags)
        : undefined
    const chosenTarget = asked?.target ?? flags.target ?? "node"
    const { methods, sessions, target } = checkChoice(
      asked?.methods ?? flags.methods ?? ["password"],
      asked?.sessions ?? flags.sessions ?? defaultSessions(chosenTarget),
      chosenTarget,
    )
    const choice = { methods, sessions, target, project }
    // Cloudflare's local server (`wrangler pages dev`) reads its secrets from `.dev.vars`.
    const envFile = target === "cloudflare-pages" ? ".dev.vars" : ".env"
    // Before anything is written: a file init must not put the secret into stops the run.
    checkEnvFile(dir, envFile)
    const options = { force: flags.force, dryRun: flags.dryRun }
    const installFrom = flags.installFrom ? resolve(flags.installFrom) : undefined
    const would = flags.dryRun ? "would be " : ""

    out(
      `latchkey init${flags.dryRun ? " (dry run: nothing is written)" : ""}: Qwik ${project.qwik} app ` +
        `(${project.binding}, ${project.packageManager}); methods ${methods.join(", ")}; sessions ${sessions}; target ${target}`,
    )

    // 1. package.json
    const wanted = packagesFor(choice, ownVersion())
    const added = addDependencies(dir, project.packageJson, wanted, { ...options, installFrom })
    out(
      added.length > 0
        ? `  package.json: ${would}added devDependencies ${added.join(", ")}`
        : "  package.json: lists every package needed",
    )

    // 2. the files
    let kept = 0
    for (const [path, content] of filesFor(choice)) {
      const result = writeFile(dir, path, content, options)
      if (result.status === "kept") {
        kept++
        out(`  kept ${path}: it differs from what init writes (--force replaces it):`)
        out(indent(result.diff ?? "", "    "))
      } else out(`  ${path}: ${would}${result.status}`)
    }

    // 3. Vite's plugin (Qwik 1: it keeps a QwikAuth$ config out of the client build; Qwik 2
    //    apps use routeAuth$, which needs none, and @latchkey/qwik2 has no plugin).
    if (project.qwik === 1) {
      const step = await addVitePlugin(dir, options)
      out(
        `  ${step.status === "added" && flags.dryRun ? `${step.file}: would add latchkey()` : step.message}`,
      )
    }

    // 4. .env and .gitignore
    const envAdded = ensureEnv(dir, options, envFile)
    out(
      envAdded.length > 0
        ? `  ${envFile}: ${would}added ${envAdded.join(", ")}`
        : `  ${envFile}: has AUTH_SECRET`,
    )
    /** @type {Parameters<typeof ensureGitignore>[1]} */
    const secrets =
      envFile === ".env" ? [".env"] : [/** @type {const} */ (".dev.vars"), ".wrangler/"]
    const ignored = ensureGitignore(
      dir,
      sessions === "pglite" ? [...secrets, ".data/"] : secrets,
      options,
    )
    out(
      ignored.length > 0
        ? `  .gitignore: ${would}added ${ignored.join(", ")}`
        : `  .gitignore: ignores ${secrets.join(" and ")} already`,
    )
    if (sessions === "pglite" && !flags.dryRun) mkdirSync(join(dir, ".data"), { recursive: true })

    // 5. install
    // After a package.json edit (a tarball may replace a version), or when a package is absent.
    const needed = added.length > 0 || notInstalled(dir, Object.keys(wanted)).length > 0
    if (flags.dryRun || !needed) {
      if (needed) out(`  ${project.packageManager} install: would run`)
    } else if (!flags.install) {
      out(`  install: skipped (--no-install); run \`${project.packageManager} install\``)
    } else {
      out(`  ${project.packageManager} install:`)
      const run = spawnSync(project.packageManager, ["install"], {
        cwd: dir,
        stdio: "inherit",
        shell: process.platform === "win32",
      })
      if (run.status !== 0) {
        process.stderr.write(
          `latchkey init: \`${project.packageManager} install\` failed; run it, then \`npx latchkey init\` again\n`,
        )
        return 1
      }
    }

    // 6. the schema (D1: Latchkey's Drizzle tables, from which drizzle-kit writes migrations),
    //    or the migrations (PGlite, PostgreSQL)
    if (sessions === "d1" && !flags.dryRun) {
      out(`  schema: ${await generateDrizzleSchema(dir)}`)
    } else if (sessions !== "jwt" && !flags.dryRun) {
      const databaseUrl =
        sessions === "postgres"
          ? process.env.DATABASE_URL || readEnvFile(dir).DATABASE_URL || undefined
          : undefined
      if (sessions === "postgres" && !databaseUrl) {
        out("  migrations: skipped, no DATABASE_URL (set it, then `npx latchkey migrate`)")
      } else {
        try {
          // The directory the app's db module opens (a kept one may name another).
          const pgliteDir = pgliteDirOf(dir) ?? PGLITE_DIR
          const where = databaseUrl ? { databaseUrl } : { pgliteDir }
          out(`  migrations: ${describeOutcome(await runMigrations(dir, where))}`)
        } catch (error) {
          if (!(error instanceof MigrateError)) throw error
          out(`  migrations: skipped, ${error.message} (then \`npx latchkey migrate\`)`)
        }
      }
    }

    out("")
    out("Next steps:")
    for (const step of nextSteps(choice, kept)) out(`  - ${step}`)
    return 0
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error)
    process.stderr.write(`latchkey init: ${message}\n`)
    if (error instanceof UsageError) process.stderr.write(INIT_USAGE)
    if (error instanceof EnvFileRefused)
      process.stderr.write("latchkey init: nothing was written\n")
    return 1
  }
}

/** @param {string} text @param {string} prefix */
function indent(text, prefix) {
  return text
    .split("\n")
    .map((line) => `${prefix}${line}`)
    .join("\n")
}

/**
 * @param {{ methods: string[]; sessions: string; target: string }} choice
 * @param {number} kept files left as the user had them
 */
function nextSteps({ methods, sessions, target }, kept) {
  /** @type {string[]} */
  const steps = []
  if (kept > 0) steps.push("merge the diffs above by hand, or run again with --force")
  if (sessions === "d1") {
    steps.push(
      "`npx drizzle-kit generate` (the migration of src/db/auth-schema.ts), then `npx wrangler d1 migrations apply auth --local`",
    )
    if (methods.includes("password") || methods.includes("email")) {
      steps.push(
        "set AUTH_RESEND_KEY (Resend's API key) and EMAIL_FROM in .dev.vars, and in the Pages project's settings: workerd has no SMTP",
      )
    }
    steps.push(
      "`npm run qwik add cloudflare-pages`, `npm run build`, then `npx wrangler pages dev ./dist` and open /account/ (D1 exists only there, not under `npm run dev`)",
    )
    steps.push(
      "to deploy: `npx wrangler d1 create auth`, its database_id in wrangler.toml, the migrations with --remote, and AUTH_SECRET in the project's settings",
    )
    return steps
  }
  if (methods.includes("password") || methods.includes("email")) {
    steps.push(
      "in development the mails stay on this machine: read them at http://localhost:5173/dev/mailbox/",
      "before production, set EMAIL_SERVER (an SMTP URL) and EMAIL_FROM (the From address): a production server (and `npm run preview`) refuses to start without EMAIL_SERVER",
    )
  }
  if (methods.includes("github")) steps.push("set AUTH_GITHUB_ID and AUTH_GITHUB_SECRET in .env")
  if (methods.includes("google")) steps.push("set AUTH_GOOGLE_ID and AUTH_GOOGLE_SECRET in .env")
  if (methods.includes("oidc")) {
    steps.push("set AUTH_OIDC_ISSUER, AUTH_OIDC_ID and AUTH_OIDC_SECRET in .env")
  }
  if (sessions === "postgres") {
    steps.push("export DATABASE_URL (PostgreSQL) for the server, and run `npx latchkey migrate`")
  }
  const where = TARGETS[/** @type {keyof typeof TARGETS} */ (target)]
  steps.push("`npm run dev`, then open http://localhost:5173/account (sign-in is /auth/signin)")
  steps.push(
    `for ${where.name}: \`npm run qwik add ${where.adapter}\` (Qwik City's adapter), \`npm run build\`, then \`${where.start}\``,
  )
  steps.push("`npm run build` then `npm run preview` signs in too, at http://localhost:4173")
  steps.push(
    "in production, set AUTH_SECRET and AUTH_URL (the public URL) in the server's environment",
  )
  return steps
}
