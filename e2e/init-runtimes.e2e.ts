/**
 * `npx latchkey init --target bun` and `--target deno`: init's default app (Qwik 1, password
 * accounts, PGlite, mail over SMTP) built with each runtime's Qwik City adapter (the files `qwik
 * add bun` and `qwik add deno` write, `fixtures/runtime-adapters`) and started as init's next
 * steps say, each runtime from the npm registry (`runtime-tools/`). One install and one client
 * build for both. In Chromium: sign-up, the mail from a real SMTP server, sign-in and out, a
 * wrong password. Node runs init's output in `init.e2e.ts`, Cloudflare in `init-cloudflare.e2e.ts`.
 */
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { parseEnv } from "node:util"
import type { Browser } from "playwright-core"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { pageErrors } from "./browser.js"
import {
  createApp,
  type FixtureApp,
  type RunningApp,
  reservePort,
  startCommand,
} from "./fixture-apps.js"
import { init, sharedBrowserAndInbox } from "./init-apps.js"
import type { SmtpMailbox } from "./password-flows.js"
import { mailEnv, passwordAccount } from "./quickstart-flows.js"
import { toolBin } from "./runtime-tools/install.mjs"
import {
  type AppEnv,
  buildClient,
  buildServer,
  installRuntimeTools,
  RUNTIMES,
  type Runtime,
  selectedRuntimes,
} from "./runtimes.js"

const SETUP_TIMEOUT = 600_000

let browser: Browser
let inbox: SmtpMailbox
let app: FixtureApp
let printed: Record<string, string> = {}

sharedBrowserAndInbox((b, i) => {
  browser = b
  inbox = i
})

beforeAll(async () => {
  ;[app] = await Promise.all([
    createApp("init-runtimes", ["runtime-adapters"]),
    installRuntimeTools(),
  ])
  printed = { bun: await init(app, "password", { target: "bun" }) }
  // The same files for Deno: the second run changes nothing but the next steps.
  printed.deno = await init(app, "password", { target: "deno" })
  await buildClient(app)
}, SETUP_TIMEOUT)

afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([])
})

const runtimes = selectedRuntimes(RUNTIMES.filter((r) => ["bun", "deno"].includes(r.adapter)))

/**
 * The server as init's next steps start it. Deno: with the permissions they name (PGlite writes
 * its directory, `.data`), and `--config deno.json`, which maps Qwik City's `deno.land` import
 * to a local module (offline, as `deploying.md` says). Bun: as the runtime tests start it.
 */
function start(runtime: Runtime, port: number, env: AppEnv): Promise<RunningApp> {
  if (runtime.adapter !== "deno") return runtime.start(app, port, env)
  const args = ["run", "--no-lock", "--config", "deno.json", "--allow-net", "--allow-read"]
  args.push("--allow-env", "--allow-write=.data", "server/entry.deno.js")
  const denoEnv = {
    DENO_NO_UPDATE_CHECK: "1",
    DENO_DIR: join(app.dir, ".deno"),
    PORT: String(port),
  }
  return startCommand(app, toolBin("deno"), args, { ...env, ...denoEnv }, port)
}

for (const runtime of runtimes) {
  describe(`npx latchkey init --target ${runtime.adapter}: ${runtime.name}`, () => {
    let server: RunningApp
    beforeAll(async () => {
      await buildServer(app, runtime.adapter)
      const port = await reservePort()
      const url = `http://localhost:${port}`
      const secret = String(parseEnv(readFileSync(join(app.dir, ".env"), "utf8")).AUTH_SECRET)
      // Production reads the environment: the secret, the public URL, the mail server.
      const env = { AUTH_SECRET: secret, AUTH_URL: url, ...mailEnv(inbox) }
      server = { ...(await start(runtime, port, env)), url }
    }, SETUP_TIMEOUT)
    afterAll(async () => {
      await server?.stop()
    })

    it("names the runtime's adapter and start command", () => {
      expect(printed[runtime.adapter]).toContain(`\`npm run qwik add ${runtime.adapter}\``)
    })

    it("signs up, confirms the mailed link, signs in and out, refuses a wrong password", () =>
      passwordAccount(
        browser,
        server,
        { nextMail: (to) => inbox.next(to, /^/) },
        {
          js: true,
          home: "/account/",
        },
      ))
  })
}
