/**
 * The README's five-minute quick start, as a new user runs it: Qwik's empty starter, the quick
 * start's files (`fixtures/quickstart`), our packages installed from `npm pack` tarballs, a
 * `.env` with `npx latchkey secret` and `AUTH_URL`. Driven in Chromium under `vite dev` and as a
 * production build, with JavaScript on and off; then the same with PGlite and database sessions
 * (`fixtures/quickstart-pglite`). Also proves the app's auth config never reaches the client build.
 */
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import type { Browser } from "playwright-core"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { launch, pageErrors } from "./browser.js"
import {
  clientFilesMatching,
  createApp,
  type FixtureApp,
  pglitePackage,
  type RunningApp,
  removeFixtures,
  serverFilesMatching,
  typeCheck,
} from "./fixture-apps.js"
import { serveApp, signInReloadSignOut, wrongPasswordShown } from "./quickstart-flows.js"

const SETUP_TIMEOUT = 240_000

let browser: Browser
const apps: Record<string, FixtureApp> = {}
const servers: Record<string, RunningApp> = {}
const buildLogs: Record<string, string> = {}

/** One server per (app, mode); production is served as the README says (node-server). */
async function serve(name: string, mode: "dev" | "production"): Promise<RunningApp> {
  const onBuild = (log: string) => {
    buildLogs[name] = log
  }
  return serveApp(apps[name]!, mode, onBuild, "node-server")
}

beforeAll(async () => {
  browser = await launch()
  apps.quickstart = await createApp("quickstart", ["quickstart"])
  apps.pglite = await createApp(
    "quickstart-pglite",
    ["quickstart", "quickstart-pglite"],
    ["@latchkey/adapter-postgres", pglitePackage()],
  )
  // The quick start's one shell step for PGlite.
  mkdirSync(join(apps.pglite.dir, ".data"), { recursive: true })
}, SETUP_TIMEOUT)

afterAll(async () => {
  await Promise.all(Object.values(servers).map((server) => server.stop()))
  await browser?.close()
  if (!process.env.E2E_KEEP_FIXTURES) removeFixtures()
})

afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([])
})

it.each(["quickstart", "pglite"])(
  "%s type-checks as written (tsc --noEmit)",
  async (name) => {
    await expect(typeCheck(apps[name]!)).resolves.toBeUndefined()
  },
  120_000,
)

for (const [name, label] of [
  ["quickstart", "the quick start"],
  ["pglite", "the quick start with PGlite and database sessions"],
] as const) {
  for (const mode of ["dev", "production"] as const) {
    describe(`${label}, ${mode}`, () => {
      beforeAll(async () => {
        servers[`${name}-${mode}`] = await serve(name, mode)
      }, SETUP_TIMEOUT)
      afterAll(async () => {
        await servers[`${name}-${mode}`]?.stop()
      })

      for (const js of [true, false]) {
        const how = js ? "with JavaScript" : "without JavaScript"

        it(`signs in, keeps the session across a reload, and signs out, ${how}`, () =>
          signInReloadSignOut(browser, servers[`${name}-${mode}`]!.url, js))

        it(`refuses a wrong password visibly, ${how}`, () =>
          wrongPasswordShown(browser, servers[`${name}-${mode}`]!, js))
      }

      if (mode === "production") {
        it("builds without a warning from Latchkey's packages", () => {
          // The fixture's own path (under a `latchkey-fixtures-*` directory) is no warning.
          const log = buildLogs[name]!.replaceAll(apps[name]!.dir, "<app>")
          const lines = log.split("\n").filter((line) => /latchkey/i.test(line))
          expect(lines).toEqual([])
        })

        it("writes none of the auth config, users module or database code to the client build", () => {
          const app = apps[name]!
          // Present in the server build (so the search can find them), absent from the client's.
          const markers = [/ada@example\.com/, /PBKDF2/, /correct horse battery staple/]
          if (name === "pglite") markers.push(/\.data\/auth/, /@electric-sql\/pglite/)
          for (const marker of markers) {
            expect(serverFilesMatching(app, marker), String(marker)).not.toEqual([])
            expect(clientFilesMatching(app, marker), String(marker)).toEqual([])
          }
          expect(clientFilesMatching(app, /@latchkey\/core|\.wasm\b/)).toEqual([])
        })
      }
    })
  }
}
