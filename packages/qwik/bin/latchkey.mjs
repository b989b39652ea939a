#!/usr/bin/env node
// `npx latchkey secret`: print a new AUTH_SECRET (32 random bytes, base64url).
// `npx latchkey vite`: add Latchkey's Vite plugin to ./vite.config.{ts,mts,js,mjs}.
import { randomBytes } from "node:crypto"
import { existsSync, readFileSync, writeFileSync } from "node:fs"

const USAGE = `Usage: latchkey secret    print a new AUTH_SECRET (32 random bytes, base64url)
       latchkey vite      add latchkey() from @latchkey/qwik/vite to ./vite.config.ts
`

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

const [command] = process.argv.slice(2)
if (command === "secret") {
  process.stdout.write(`${randomBytes(32).toString("base64url")}\n`)
} else if (command === "vite") {
  process.exitCode = await addVitePlugin()
} else {
  process.stderr.write(USAGE)
  process.exit(command === undefined || command === "help" || command === "--help" ? 0 : 1)
}
