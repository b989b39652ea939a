#!/usr/bin/env node
// `npx latchkey secret`: print a new AUTH_SECRET (32 random bytes, base64url).
// `npx latchkey vite`: add Latchkey's Vite plugin to ./vite.config.{ts,mts,js,mjs}.
// `npx latchkey init`: set Latchkey up in the Qwik City app of the current directory.
// `npx latchkey migrate`: apply the database migrations of @latchkey/adapter-postgres.
import { newSecret } from "./secret.mjs"
import { addVitePlugin } from "./vite.mjs"

const USAGE = `Usage: latchkey secret    print a new AUTH_SECRET (32 random bytes, base64url)
       latchkey vite      add latchkey() from @latchkey/qwik/vite to ./vite.config.ts
       latchkey init      set up Latchkey in this Qwik City app (latchkey init --help)
       latchkey migrate   apply the database migrations (DATABASE_URL, or the app's PGlite directory)
`

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
} else if (command === "migrate") {
  const { main } = await import("./init/migrate.mjs")
  process.exitCode = await main(args)
} else {
  process.stderr.write(USAGE)
  process.exit(command === undefined || command === "help" || command === "--help" ? 0 : 1)
}
