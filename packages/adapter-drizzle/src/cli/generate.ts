/**
 * `latchkey generate --drizzle <pg|mysql|sqlite> [--out <file>] [--features a,b] [--force]`:
 * writes the app's Latchkey schema file (see `../generate/index.ts`) for the features its
 * config (`src/routes/plugin@auth.ts`) enables, or those `--features` names. Node only.
 *
 * @module @latchkey/adapter-drizzle/cli
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs"
import { dirname, join, relative, resolve } from "node:path"
import { parseArgs } from "node:util"
import {
  detectFeatures,
  dialects,
  features,
  type SchemaDialect,
  type SchemaFeature,
  schemaFile,
} from "../generate/index.js"

export const GENERATE_USAGE = `Usage: latchkey generate --drizzle <pg|mysql|sqlite> [--out <file>] [--features <list>] [--force]

Writes Latchkey's Drizzle schema file (default src/db/auth-schema.ts) with the tables of the
features src/routes/plugin@auth.ts enables (--features: any of ${features.join(", ")}).
Then: npx drizzle-kit generate (the migration), and apply it as your app does.
`

export const DEFAULT_SCHEMA_FILE = "src/db/auth-schema.ts"
const CONFIG_FILE = "src/routes/plugin@auth.ts"

/** Where the command reads and writes, and what it prints to. */
export interface GenerateIo {
  cwd: string
  out(line: string): void
  err(line: string): void
}

/** Runs the command; the exit code (2: a wrong command line, 1: a file in the way). */
export function runGenerate(args: readonly string[], io: GenerateIo): number {
  let values: { drizzle?: string; out?: string; features?: string; force?: boolean }
  try {
    values = parseArgs({
      args: [...args],
      options: {
        drizzle: { type: "string" },
        out: { type: "string" },
        features: { type: "string" },
        force: { type: "boolean" },
      },
    }).values
  } catch (error) {
    io.err(`latchkey generate: ${(error as Error).message}\n${GENERATE_USAGE}`)
    return 2
  }
  const dialect = values.drizzle as SchemaDialect | undefined
  if (!dialect || !dialects.includes(dialect)) {
    io.err(`latchkey generate: --drizzle must be one of ${dialects.join(", ")}\n${GENERATE_USAGE}`)
    return 2
  }
  const chosen = values.features === undefined ? fromConfig(io.cwd) : parseFeatures(values.features)
  if (typeof chosen === "string") {
    io.err(`latchkey generate: ${chosen}\n${GENERATE_USAGE}`)
    return 2
  }
  const file = resolve(io.cwd, values.out ?? DEFAULT_SCHEMA_FILE)
  const text = schemaFile(dialect, chosen)
  const shown = relative(io.cwd, file)
  if (existsSync(file) && readFileSync(file, "utf8") !== text && !values.force) {
    io.err(
      `latchkey generate: ${shown} exists and differs; --force replaces it. It would be:\n${text}`,
    )
    return 1
  }
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, text)
  io.out(`Wrote ${shown} (${dialect}; features: ${chosen.join(", ") || "none"}).`)
  io.out("Next: npx drizzle-kit generate, then apply the migration as your app does.")
  return 0
}

function fromConfig(cwd: string): SchemaFeature[] {
  const config = join(cwd, CONFIG_FILE)
  return existsSync(config) ? detectFeatures(readFileSync(config, "utf8")) : [...features]
}

function parseFeatures(list: string): SchemaFeature[] | string {
  const names = list
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean)
  const unknown = names.filter((name) => !features.includes(name as SchemaFeature))
  if (unknown.length > 0) return `unknown feature ${unknown.join(", ")}`
  return names as SchemaFeature[]
}
