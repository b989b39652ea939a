#!/usr/bin/env node
// `npx latchkey secret`: print a new AUTH_SECRET (32 random bytes, base64url).
import { randomBytes } from "node:crypto"

const [command] = process.argv.slice(2)
if (command === "secret") {
  process.stdout.write(`${randomBytes(32).toString("base64url")}\n`)
} else {
  process.stderr.write(
    "Usage: latchkey secret    print a new AUTH_SECRET (32 random bytes, base64url)\n",
  )
  process.exit(command === undefined || command === "help" || command === "--help" ? 0 : 1)
}
