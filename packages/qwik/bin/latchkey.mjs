#!/usr/bin/env node
// `npx latchkey secret`: print a new AUTH_SECRET (32 random bytes, base64url).
// `npx latchkey vite`: add Latchkey's Vite plugin to ./vite.config.{ts,mts,js,mjs}.
// Every other command goes to the database commands of @latchkey/adapter-postgres/cli
// (users:unproven, sessions:end, two-factor:reset, …), one module each, registered there.
import { randomBytes } from "node:crypto"
import { existsSync, readFileSync, writeFileSync } from "node:fs"

const USAGE = `Usage: latchkey secret    print a new AUTH_SECRET (32 random bytes, base64url)
       latchkey vite      add latchkey() from @latchkey/qwik/vite to ./vite.config.ts
Database commands (with @latchkey/adapter-postgres installed, on DATABASE_URL):
       latchkey users:unproven --older-than 30d [--limit 1000] [--remove]
       latchkey sessions:end <userId>
       latchkey two-factor:reset <userId>
`

/** The database commands, from @latchkey/adapter-postgres; `undefined` when not installed. */
async function databaseCommands() {
  try {
    return await import("@latchkey/adapter-postgres/cli")
  } catch (error) {
    if (
      error?.code === "ERR_MODULE_NOT_FOUND" &&
      String(error.message).includes("adapter-postgres")
    ) {
      return undefined
    }
    throw error
  }
}

async function runDatabaseCommand(argv) {
  const cli = await databaseCommands()
  if (!cli) {
    process.stderr.write(
      `${USAGE}(database commands need @latchkey/adapter-postgres: not installed)\n`,
    )
    return 1
  }
  if (!cli.hasSubcommand(argv[0])) {
    process.stderr.write(USAGE)
    return 1
  }
  return cli.runCli(argv, {
    env: process.env,
    out: (line) => process.stdout.write(`${line}\n`),
    err: (line) => process.stderr.write(`${line}\n`),
  })
}

async function addVitePlugin() {
  const { addLatchkeyPlugin, VITE_PLUGIN_IMPORT } = await import("../dist/vite-setup.js")
  const manual = `Add it by hand:\n  ${VITE_PLUGIN_IMPORT}\nand latchkey() first in plugins: [...].\n`
  const file = ["vite.config.ts", "vite.config.mts", "vite.config.js", "vite.config.mjs"].find(
    (name) => existsSync(name),
  )
  if (!file) {
    process.stderr.write(`latchkey vite: no vite.config.ts in ${process.cwd()}. ${manual}`)
    return 1
  }
  const edit = addLatchkeyPlugin(readFileSync(file, "utf8"))
  if (edit.status === "present") {
    process.stdout.write(`${file} already uses latchkey().\n`)
    return 0
  }
  if (edit.status === "unrecognised") {
    process.stderr.write(`latchkey vite: found no \`plugins: [\` in ${file}. ${manual}`)
    return 1
  }
  writeFileSync(file, edit.source)
  process.stdout.write(`${file}: added ${VITE_PLUGIN_IMPORT} and latchkey() to plugins.\n`)
  return 0
}

const [command, ...rest] = process.argv.slice(2)
if (command === "secret") {
  process.stdout.write(`${randomBytes(32).toString("base64url")}\n`)
} else if (command === "vite") {
  process.exitCode = await addVitePlugin()
} else if (command === undefined || command === "help" || command === "--help") {
  process.stderr.write(USAGE)
} else {
  process.exitCode = await runDatabaseCommand([command, ...rest])
}
