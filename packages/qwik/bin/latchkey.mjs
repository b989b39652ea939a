#!/usr/bin/env node
// `npx latchkey secret`: print a new AUTH_SECRET (32 random bytes, base64url).
// `npx latchkey vite`: add Latchkey's Vite plugin to ./vite.config.{ts,mts,js,mjs}.
// `npx latchkey init`: set Latchkey up in the Qwik City app of the current directory.
// `npx latchkey migrate`: apply the database migrations of @latchkey/adapter-postgres.
// `npx latchkey generate --drizzle <dialect>`: write the Drizzle schema file (@latchkey/adapter-drizzle).
// Every other command goes to the database commands of @latchkey/adapter-postgres/cli
// (users:unproven, sessions:end, two-factor:reset, …), one module each, registered there.
import { newSecret } from "./secret.mjs"
import { addVitePlugin } from "./vite.mjs"

const USAGE = `Usage: latchkey secret    print a new AUTH_SECRET (32 random bytes, base64url)
       latchkey vite      add latchkey() from @latchkey/qwik/vite to ./vite.config.ts
       latchkey init      set up Latchkey in this Qwik City app (latchkey init --help)
       latchkey migrate   apply the database migrations (DATABASE_URL, or the app's PGlite directory)
       latchkey generate --drizzle <pg|mysql|sqlite>   write Latchkey's Drizzle schema file
Database commands (with @latchkey/adapter-postgres installed, on DATABASE_URL):
       latchkey users:unproven --older-than 30d [--limit 1000] [--remove]
       latchkey sessions:end <userId>
       latchkey two-factor:reset <userId>
`

/** The database commands, from @latchkey/adapter-postgres; `undefined` when not installed. */
async function databaseCommands() {
  try {
    return await import("@latchkey/adapter-postgres/cli")
  } catch (caught) {
    const error = /** @type {{ code?: string, message?: string } | undefined} */ (caught)
    if (
      error?.code === "ERR_MODULE_NOT_FOUND" &&
      String(error.message).includes("adapter-postgres")
    ) {
      return undefined
    }
    throw error
  }
}

/** @param {string[]} argv */
async function runDatabaseCommand(argv) {
  const cli = await databaseCommands()
  if (!cli) {
    process.stderr.write(
      `${USAGE}(database commands need @latchkey/adapter-postgres: not installed)\n`,
    )
    return 1
  }
  if (!cli.hasSubcommand(argv[0] ?? "")) {
    process.stderr.write(USAGE)
    return 1
  }
  return cli.runCli(argv, {
    env: process.env,
    out: (/** @type {string} */ line) => process.stdout.write(`${line}\n`),
    err: (/** @type {string} */ line) => process.stderr.write(`${line}\n`),
  })
}

/** @param {string[]} args */
async function runGenerate(args) {
  let cli
  try {
    cli = await import("@latchkey/adapter-drizzle/cli")
  } catch (caught) {
    const error = /** @type {{ code?: string, message?: string } | undefined} */ (caught)
    if (
      error?.code !== "ERR_MODULE_NOT_FOUND" ||
      !String(error.message).includes("adapter-drizzle")
    ) {
      throw error
    }
    process.stderr.write(
      "latchkey generate writes the schema of @latchkey/adapter-drizzle: npm install -D @latchkey/adapter-drizzle drizzle-orm drizzle-kit\n",
    )
    return 1
  }
  return cli.runGenerate(args, {
    cwd: process.cwd(),
    out: (/** @type {string} */ line) => process.stdout.write(`${line}\n`),
    err: (/** @type {string} */ line) => process.stderr.write(`${line}\n`),
  })
}

const [command, ...args] = process.argv.slice(2)
if (command === "secret") {
  process.stdout.write(`${newSecret()}\n`)
} else if (command === "vite") {
  const step = await addVitePlugin(process.cwd())
  const ok = step.status === "added" || step.status === "present"
  if (ok) process.stdout.write(`${step.message}\n`)
  else process.stderr.write(`latchkey vite: ${step.message}\n`)
  process.exitCode = ok ? 0 : 1
} else if (command === "init") {
  const { main } = await import("./init/init.mjs")
  process.exitCode = await main(args)
} else if (command === "generate") {
  process.exitCode = await runGenerate(args)
} else if (command === "migrate") {
  const { main } = await import("./init/migrate.mjs")
  process.exitCode = await main(args)
} else if (command === undefined || command === "help" || command === "--help") {
  process.stderr.write(USAGE)
} else {
  process.exitCode = await runDatabaseCommand([command, ...args])
}
