// `npx latchkey migrate`: apply @latchkey/adapter-postgres's migrations to the app's database,
// PostgreSQL at DATABASE_URL or the PGlite directory of the app's `src/lib/db.ts`. Idempotent
// (the adapter's `migrate()` applies only what is missing). The packages are the app's own.
import { existsSync, mkdirSync, readFileSync } from "node:fs"
import { createRequire } from "node:module"
import { dirname, join, resolve } from "node:path"
import { pathToFileURL } from "node:url"
import { parseArgs } from "node:util"
import { readEnvFile } from "./env.mjs"

export const MIGRATE_USAGE = `Usage: latchkey migrate [--pglite <dir>]

Applies the migrations of @latchkey/adapter-postgres to PostgreSQL at DATABASE_URL (from the
environment or .env), or else to the PGlite directory of src/lib/db.ts (or --pglite <dir>).
`

/** A database that cannot be reached or named: printed without a stack. */
export class MigrateError extends Error {}

/**
 * Import `name` as the app in `dir` resolves it (else as this package does).
 * @param {string} dir
 * @param {string} name
 */
export async function importFromApp(dir, name) {
  for (const base of [join(dir, "package.json"), import.meta.url]) {
    try {
      return await import(pathToFileURL(createRequire(base).resolve(name)).href)
    } catch (error) {
      if (/** @type {{ code?: string }} */ (error).code !== "MODULE_NOT_FOUND") throw error
    }
  }
  throw new MigrateError(`${name} is not installed: install it in ${dir} first`)
}

/**
 * The PGlite directory the app opens: the literal in `new PGlite("…")` of `src/lib/db.ts`.
 * @param {string} dir
 */
export function pgliteDirOf(dir) {
  const file = join(dir, "src/lib/db.ts")
  if (!existsSync(file)) return undefined
  return /new PGlite\(\s*["'`]([^"'`]+)["'`]/.exec(readFileSync(file, "utf8"))?.[1]
}

/**
 * @typedef {{ target: string; applied: number[] }} MigrateOutcome
 */

/**
 * @param {string} dir the app
 * @param {{ databaseUrl?: string; pgliteDir?: string }} where
 * @returns {Promise<MigrateOutcome>}
 */
export async function runMigrations(dir, { databaseUrl, pgliteDir }) {
  const { migrate } = await importFromApp(dir, "@latchkey/adapter-postgres")
  if (databaseUrl) {
    const { default: pg } = await importFromApp(dir, "pg")
    const pool = new pg.Pool({ connectionString: databaseUrl })
    try {
      const { applied } = await migrate(pool)
      return { target: `PostgreSQL at DATABASE_URL (${redactUrl(databaseUrl)})`, applied }
    } finally {
      await pool.end()
    }
  }
  if (!pgliteDir) throw new MigrateError("no database named")
  const path = resolve(dir, pgliteDir)
  // PGlite creates only the last level of its directory.
  mkdirSync(dirname(path), { recursive: true })
  const { PGlite } = await importFromApp(dir, "@electric-sql/pglite")
  const db = new PGlite(path)
  try {
    const { applied } = await migrate(db)
    return { target: `PGlite in ${pgliteDir}`, applied }
  } finally {
    await db.close()
  }
}

/** A URL without its password, for the console. @param {string} url */
function redactUrl(url) {
  try {
    const parsed = new URL(url)
    if (parsed.password) parsed.password = "***"
    return parsed.toString()
  } catch {
    return "unparsable URL"
  }
}

/**
 * Where `migrate` applies, from the flags, the environment, `.env` and the app's db module.
 * @param {string} dir
 * @param {{ pglite?: string }} flags
 */
export function databaseOf(dir, flags) {
  const databaseUrl = process.env.DATABASE_URL || readEnvFile(dir).DATABASE_URL || undefined
  if (flags.pglite) return { pgliteDir: flags.pglite }
  if (databaseUrl) return { databaseUrl }
  const pgliteDir = pgliteDirOf(dir)
  return pgliteDir ? { pgliteDir } : undefined
}

/** @param {MigrateOutcome} outcome */
export function describeOutcome({ target, applied }) {
  return applied.length === 0
    ? `${target}: the schema is up to date (nothing applied).`
    : `${target}: applied migration${applied.length > 1 ? "s" : ""} ${applied.join(", ")}.`
}

/** @param {string[]} args */
export async function main(args) {
  const dir = process.cwd()
  let flags
  try {
    flags = parseArgs({
      args,
      options: { pglite: { type: "string" }, help: { type: "boolean", short: "h" } },
    }).values
  } catch (error) {
    process.stderr.write(`latchkey migrate: ${error instanceof Error ? error.message : error}\n`)
    process.stderr.write(MIGRATE_USAGE)
    return 1
  }
  if (flags.help) {
    process.stdout.write(MIGRATE_USAGE)
    return 0
  }
  const where = databaseOf(dir, flags)
  if (!where) {
    process.stderr.write(
      "latchkey migrate: no database configured. Set DATABASE_URL (PostgreSQL, in the environment or .env), " +
        'or keep PGlite\'s directory in src/lib/db.ts (new PGlite("./.data/auth")), or pass --pglite <dir>.\n',
    )
    return 1
  }
  try {
    process.stdout.write(`${describeOutcome(await runMigrations(dir, where))}\n`)
    return 0
  } catch (error) {
    process.stderr.write(`latchkey migrate: ${error instanceof Error ? error.message : error}\n`)
    return 1
  }
}
