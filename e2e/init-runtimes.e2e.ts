/**
 * `npx latchkey init --target bun` and `--target deno`, each on Qwik's empty starter (v1) with
 * the runtime's Qwik City adapter (the files `qwik add bun` / `qwik add deno` write,
 * `fixtures/runtime-adapters`), built and started as init's next steps say, each runtime from
 * the npm registry (`runtime-tools/`):
 * - Bun: init's default app (password accounts, PGlite, mail over SMTP to a real server on
 *   loopback): sign-up, the mail, sign-in and out, a wrong password.
 * - Deno: Qwik City's Deno build has no Node built-ins (no PGlite, pg or SMTP), so init's
 *   default there is JWT sessions: `--methods oidc`, signed in through a real OpenID Provider on
 *   loopback, and out.
 * Node runs init's output in `init.e2e.ts`, Cloudflare in `init-cloudflare.e2e.ts`.
 */
import { randomUUID } from "node:crypto"
import { readFileSync } from "node:fs"
import { join } from "node:path"
import { parseEnv } from "node:util"
import type { Browser } from "playwright-core"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { startLocalOidc } from "../examples/qwik-app/scripts/local-oidc.mjs"
import { open, pageErrors } from "./browser.js"
import {
  createApp,
  type FixtureApp,
  type RunningApp,
  reservePort,
  startCommand,
} from "./fixture-apps.js"
import { init, sharedBrowserAndInbox, signInWithOidc } from "./init-apps.js"
import type { SmtpMailbox } from "./password-flows.js"
import { mailEnv, passwordAccount, signOut } from "./quickstart-flows.js"
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

sharedBrowserAndInbox((b, i) => {
  browser = b
  inbox = i
})

afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([])
})

/**
 * The server as init's next steps start it. Deno: with the permissions they name, and
 * `--config deno.json`, which maps Qwik City's `deno.land` import to a local module (offline,
 * as `deploying.md` says). Bun: as the runtime tests start it.
 */
function start(app: FixtureApp, runtime: Runtime, port: number, env: AppEnv) {
  if (runtime.adapter !== "deno") return runtime.start(app, port, env)
  const args = ["run", "--no-lock", "--config", "deno.json", "--allow-net", "--allow-read"]
  args.push("--allow-env", "server/entry.deno.js")
  const denoEnv = {
    DENO_NO_UPDATE_CHECK: "1",
    DENO_DIR: join(app.dir, ".deno"),
    PORT: String(port),
  }
  return startCommand(app, toolBin("deno"), args, { ...env, ...denoEnv }, port)
}

/** The secret init wrote to `.env`: production reads it from the environment instead. */
function secretOf(app: FixtureApp): string {
  return String(parseEnv(readFileSync(join(app.dir, ".env"), "utf8")).AUTH_SECRET)
}

const runtimes = selectedRuntimes(RUNTIMES.filter((r) => ["bun", "deno"].includes(r.adapter)))

for (const runtime of runtimes) {
  const deno = runtime.adapter === "deno"
  describe(`npx latchkey init --target ${runtime.adapter}: ${runtime.name}`, () => {
    let server: RunningApp
    let oidc: Awaited<ReturnType<typeof startLocalOidc>> | undefined
    let printed = ""

    beforeAll(async () => {
      const [app] = await Promise.all([
        createApp(`init-${runtime.adapter}`, ["runtime-adapters"]),
        installRuntimeTools(),
      ])
      const port = await reservePort()
      const url = `http://localhost:${port}`
      printed = await init(app!, deno ? "oidc" : "password", { target: runtime.adapter })
      await buildClient(app!)
      await buildServer(app!, runtime.adapter)
      // Production reads the environment: the secret, the public URL, and the mail server or
      // the OpenID Provider (a real one on loopback, which knows this server's callback URL).
      const env: AppEnv = { AUTH_SECRET: secretOf(app!), AUTH_URL: url }
      if (deno) {
        oidc = await startLocalOidc({ redirectUris: [`${url}/auth/callback/oidc`] })
        Object.assign(env, {
          AUTH_OIDC_ISSUER: oidc.issuer,
          AUTH_OIDC_ID: oidc.clientId,
          AUTH_OIDC_SECRET: oidc.clientSecret,
        })
      } else Object.assign(env, mailEnv(inbox))
      server = { ...(await start(app!, runtime, port, env)), url }
    }, SETUP_TIMEOUT)
    afterAll(async () => {
      await server?.stop()
      await oidc?.close()
    })

    it("names the runtime's adapter and start command; the default storage runs there", () => {
      expect(printed).toContain(`\`npm run qwik add ${runtime.adapter}\``)
      expect(printed).toContain(deno ? "sessions jwt; target deno" : "sessions pglite; target bun")
    })

    if (deno) {
      it("signs in with the OpenID Provider and out", async () => {
        const { context, page } = await open(browser, server.url)
        const email = `init-deno-${randomUUID()}@example.org`
        await signInWithOidc(page, oidc!, email)
        await page.reload()
        await page.getByText(`Signed in as ${email}`).waitFor()
        await signOut(page)
        await context.close()
      })
    } else {
      it("signs up, confirms the mailed link, signs in and out, refuses a wrong password", () =>
        passwordAccount(
          browser,
          server,
          { nextMail: (to) => inbox.next(to, /^/) },
          { js: true, home: "/account/" },
        ))
    }
  })
}
