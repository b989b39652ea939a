/**
 * `npx latchkey init --target cloudflare-pages` on Qwik's empty starter (v1), then what its
 * "Next steps" say: `npx drizzle-kit generate` and `wrangler d1 migrations apply --local` on the
 * schema init had the app's `latchkey generate` write, Qwik City's Cloudflare adapter (the files
 * `qwik add cloudflare-pages` writes, `fixtures/runtime-adapters`), the build, and `wrangler pages
 * dev` (workerd, a local D1) with the `.dev.vars` init wrote plus Resend's key and the sender.
 * Mail goes to a Resend-compatible server on loopback. In Chromium: sign-up, the mail, sign-in,
 * a wrong password (JavaScript on and off), and a passkey on the built-in pages.
 */
import { execFile } from "node:child_process"
import { appendFileSync, readdirSync } from "node:fs"
import { join } from "node:path"
import { promisify } from "node:util"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import {
  type ResendStandIn,
  startResendStandIn,
} from "../packages/core/test/email/resend-server.js"
import { launch, open, pageErrors } from "./browser.js"
import {
  createApp,
  type FixtureApp,
  type RunningApp,
  removeFixtures,
  reservePort,
} from "./fixture-apps.js"
import { init, passkeySignUpAndBack } from "./init-apps.js"
import { passwordAccount } from "./quickstart-flows.js"
import {
  buildClient,
  buildServer,
  installRuntimeTools,
  resendInbox,
  startPagesDev,
  wrangler,
} from "./runtimes.js"

const run = promisify(execFile)
const SETUP_TIMEOUT = 600_000
const RESEND_KEY = "re_init_0123456789abcdefghijklmnop"

let browser: Awaited<ReturnType<typeof launch>>
let resend: ResendStandIn
let app: FixtureApp
let server: RunningApp
let printed = ""

beforeAll(async () => {
  ;[browser, resend] = await Promise.all([launch(), startResendStandIn(RESEND_KEY)])
  ;[app] = await Promise.all([
    createApp("init-cloudflare", ["runtime-adapters"]),
    installRuntimeTools(),
  ])
  printed = await init(app, "password,passkey", { target: "cloudflare-pages" })
  const { NODE_ENV: _, VITEST: __, ...shell } = process.env
  await run("npx", ["--no-install", "drizzle-kit", "generate"], { cwd: app.dir, env: shell })
  await wrangler(app, ["d1", "migrations", "apply", "auth", "--local"])
  await buildClient(app)
  await buildServer(app, "cloudflare-pages")
  // What the next steps ask for: Resend's key and the sender (the API here is on loopback).
  appendFileSync(
    join(app.dir, ".dev.vars"),
    `AUTH_RESEND_KEY=${RESEND_KEY}\nRESEND_BASE_URL=${resend.baseUrl}\nEMAIL_FROM=App <login@example.com>\n`,
  )
  server = await startPagesDev(app, await reservePort())
}, SETUP_TIMEOUT)

afterAll(async () => {
  await server?.stop()
  await browser?.close()
  await resend?.close()
  if (!process.env.E2E_KEEP_FIXTURES) removeFixtures()
})

afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([])
})

describe("npx latchkey init --target cloudflare-pages: D1, Resend, wrangler pages dev", () => {
  it("installed the Drizzle adapter, wrote the schema and wrangler's files; D1 took the migration", () => {
    expect(printed).toContain("sessions d1; target cloudflare-pages")
    expect(printed).toMatch(
      /schema: Wrote src\/db\/auth-schema\.ts \(sqlite; features: [^)]*two-factor/,
    )
    const migrations = readdirSync(join(app.dir, "migrations")).filter((f) => f.endsWith(".sql"))
    expect(migrations).toHaveLength(1)
  })

  for (const js of [true, false]) {
    it(`signs up, confirms the mailed link, signs in and out, refuses a wrong password, ${js ? "with" : "without"} JavaScript`, () =>
      passwordAccount(browser, server, resendInbox(resend.mails), { js, home: "/account/" }))
  }

  it("signs up with a passkey on the built-in sign-in page, and back in with it", async () => {
    const { context, page } = await open(browser, server.url)
    await passkeySignUpAndBack(page, `init-cf-passkey-${crypto.randomUUID()}@example.com`)
    await context.close()
    expect(server.output()).not.toMatch(/is not defined|error=Configuration|AdapterError/)
  })
})
