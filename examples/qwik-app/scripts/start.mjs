#!/usr/bin/env node
/**
 * Start the built demo. Works with no configuration: on first run it writes a fresh AUTH_SECRET
 * into `examples/qwik-app/.env` (git-ignored), so sessions survive restarts; variables already in
 * the environment win over `.env`. Users and sessions live in embedded PGlite under
 * `examples/qwik-app/.data/` (git-ignored; delete it to start over), or `LATCHKEY_DATA_DIR`.
 */
import { randomBytes } from "node:crypto"
import { appendFileSync, existsSync } from "node:fs"
import { createServer } from "node:net"
import { fileURLToPath } from "node:url"

const envFile = fileURLToPath(new URL("../.env", import.meta.url))
if (existsSync(envFile)) process.loadEnvFile(envFile)

if (!process.env.AUTH_SECRET) {
  const secret = randomBytes(32).toString("base64url")
  appendFileSync(envFile, `AUTH_SECRET=${secret}\n`, { mode: 0o600 })
  process.env.AUTH_SECRET = secret
  console.log("Generated AUTH_SECRET into examples/qwik-app/.env")
}

// The local OpenID Provider must know the app's callback URL, hence its port, before the app
// listens: `PORT=0` picks a free one now.
process.env.PORT ||= "5173"
if (process.env.PORT === "0") process.env.PORT = String(await freePort())
if (!process.env.AUTH_LOCAL_OIDC_ISSUER && process.env.LATCHKEY_DEMO_OIDC !== "off") {
  const { startLocalOidc } = await import("./local-oidc.mjs")
  const port = process.env.PORT
  const oidc = await startLocalOidc({
    redirectUris: [
      `http://127.0.0.1:${port}/auth/callback/local-oidc`,
      `http://localhost:${port}/auth/callback/local-oidc`,
    ],
  })
  // The names the core's env defaults read for a provider with the id "local-oidc".
  process.env.AUTH_LOCAL_OIDC_ISSUER = oidc.issuer
  process.env.AUTH_LOCAL_OIDC_ID = oidc.clientId
  process.env.AUTH_LOCAL_OIDC_SECRET = oidc.clientSecret
  console.log(`Local OpenID Provider on ${oidc.issuer}`)
}

process.env.LATCHKEY_DATA_DIR ??= fileURLToPath(new URL("../.data/pglite", import.meta.url))

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer()
    probe.once("error", reject)
    probe.listen(0, process.env.HOST ?? "127.0.0.1", () => {
      const { port } = probe.address()
      probe.close(() => resolve(port))
    })
  })
}

const server = fileURLToPath(new URL("../server/entry.node-server.js", import.meta.url))
if (!existsSync(server)) {
  console.error("The demo is not built yet: run `npm run demo` from the repository root.")
  process.exit(1)
}
await import(server)
