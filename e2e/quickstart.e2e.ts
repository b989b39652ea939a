/**
 * The README's five-minute quick start, as a new user runs it: Qwik's empty starter, the quick
 * start's files (`fixtures/quickstart`: the built-in Password provider, PGlite, a page), our
 * packages installed from `npm pack` tarballs, a `.env` with `npx latchkey secret`, `AUTH_URL`
 * and `EMAIL_SERVER` (a real SMTP server on loopback). Driven in Chromium under `vite dev` and as
 * a production build served as the README says (node-server), with JavaScript on and off: sign
 * up, confirm the mailed link, sign in, sign out, a wrong password. Also proves the app's auth
 * config never reaches the client build, and that the "keeping your own users table" note's
 * files (`fixtures/own-users`) type-check on the starter's own TypeScript.
 */
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import type { Browser } from "playwright-core"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { type SmtpInbox, startSmtpInbox } from "../packages/core/test/authjs-adapters/smtp-inbox.js"
import { launch, pageErrors } from "./browser.js"
import {
  createApp,
  type FixtureApp,
  pglitePackage,
  type RunningApp,
  removeFixtures,
  typeCheck,
} from "./fixture-apps.js"
import {
  expectServerOnly,
  latchkeyLines,
  mailEnv,
  passwordAccount,
  serveApp,
} from "./quickstart-flows.js"

// A production build (fixture-apps.ts, buildOnce: a hang fails the test, never retried).
const SETUP_TIMEOUT = 420_000

let browser: Browser
let inbox: SmtpInbox
let app: FixtureApp
let ownUsers: FixtureApp
let buildLog = ""

beforeAll(async () => {
  ;[browser, inbox] = await Promise.all([launch(), startSmtpInbox()])
  app = await createApp(
    "quickstart",
    ["quickstart"],
    ["@latchkey/adapter-postgres", pglitePackage()],
  )
  // The quick start's one shell step for PGlite.
  mkdirSync(join(app.dir, ".data"), { recursive: true })
  ownUsers = await createApp("own-users", ["own-users"])
}, SETUP_TIMEOUT)

afterAll(async () => {
  await browser?.close()
  await inbox?.close()
  if (!process.env.E2E_KEEP_FIXTURES) removeFixtures()
})

afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([])
})

it.each([
  ["the quick start", () => app],
  ["the own-users note", () => ownUsers],
])(
  "%s type-checks as written, on the starter's TypeScript (tsc --noEmit)",
  async (_, which) => {
    await expect(typeCheck(which())).resolves.toBeUndefined()
  },
  120_000,
)

for (const mode of ["dev", "production"] as const) {
  describe(`the quick start, ${mode}`, () => {
    let server: RunningApp
    beforeAll(async () => {
      const onBuild = (log: string) => {
        buildLog = log
      }
      server = await serveApp(app, mode, onBuild, "node-server", { env: mailEnv(inbox) })
    }, SETUP_TIMEOUT)
    afterAll(() => server?.stop())

    for (const js of [true, false]) {
      it(`signs up, confirms the mailed link, signs in and out, refuses a wrong password, ${js ? "with" : "without"} JavaScript`, () =>
        passwordAccount(browser, server, inbox, { js, home: "/" }))
    }

    if (mode === "production") {
      it("builds without a warning from Latchkey's packages", () => {
        expect(latchkeyLines(buildLog, app)).toEqual([])
      })

      it("writes none of the auth config or database code to the client build", () => {
        expectServerOnly(app, /@latchkey\/core|\.wasm\b/)
      })
    }
  })
}
