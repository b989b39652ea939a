/**
 * The README's five-minute quick start, as a new user runs it: Qwik's empty starter, the quick
 * start's files (`fixtures/quickstart`), our packages installed from `npm pack` tarballs, a
 * `.env` with `npx latchkey secret` and `AUTH_URL`. Driven in Chromium under `vite dev` and as a
 * production build, with JavaScript on and off; then the same with PGlite and database sessions
 * (`fixtures/quickstart-pglite`). Also proves the app's auth config never reaches the client build.
 */
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import type { Browser, Page } from "playwright-core"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { launch, open, pageErrors } from "./browser.js"
import {
  buildProduction,
  clientFilesMatching,
  createApp,
  type FixtureApp,
  freePort,
  newSecret,
  pglitePackage,
  type RunningApp,
  removeFixtures,
  serverFilesMatching,
  startDev,
  startProduction,
  writeDotEnv,
} from "./fixture-apps.js"

const ADA = { email: "ada@example.com", password: "correct horse battery staple" }
const SETUP_TIMEOUT = 240_000

let browser: Browser
const apps: Record<string, FixtureApp> = {}
const servers: Record<string, RunningApp> = {}
const buildLogs: Record<string, string> = {}

/** One server per (app, mode); `.env` is what the quick start writes (production: environment). */
async function serve(name: string, mode: "dev" | "production"): Promise<RunningApp> {
  const app = apps[name]!
  const port = await freePort()
  const env = { AUTH_SECRET: await newSecret(app), AUTH_URL: `http://127.0.0.1:${port}` }
  writeDotEnv(app, env)
  if (mode === "dev") return startDev(app, port)
  buildLogs[name] = await buildProduction(app)
  return startProduction(app, port, env)
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

async function signInWith(page: Page, credentials: { email: string; password: string }) {
  await page.fill('input[name="options.email"]', credentials.email)
  await page.fill('input[name="options.password"]', credentials.password)
  await Promise.all([page.waitForLoadState(), page.click("button")])
}

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

        it(`signs in, keeps the session across a reload, and signs out, ${how}`, async () => {
          const { context, page } = await open(browser, servers[`${name}-${mode}`]!.url, {
            javaScriptEnabled: js,
          })
          await page.goto("/")
          await signInWith(page, ADA)
          await page.getByText(`Signed in as ${ADA.email}`).waitFor()
          const cookies = await context.cookies()
          const session = cookies.find((c) => c.name === "authjs.session-token")
          expect(session?.httpOnly).toBe(true)
          // The token stays in its HttpOnly cookie: never in the page.
          expect(await page.content()).not.toContain(session!.value)

          await page.reload()
          await page.getByText(`Signed in as ${ADA.email}`).waitFor()

          await Promise.all([page.waitForLoadState(), page.click("button")])
          await page.getByRole("button", { name: "Sign in" }).waitFor()
          const after = await context.cookies()
          expect(after.find((c) => c.name === "authjs.session-token")).toBeUndefined()
          await context.close()
        })

        it(`refuses a wrong password visibly, ${how}`, async () => {
          const { context, page } = await open(browser, servers[`${name}-${mode}`]!.url, {
            javaScriptEnabled: js,
          })
          await page.goto("/")
          await signInWith(page, { email: ADA.email, password: "not the password" })
          const alert = page.getByRole("alert")
          await alert.waitFor()
          expect(await alert.textContent()).toContain("Sign-in failed (CredentialsSignin)")
          expect(new URL(page.url()).searchParams.get("error")).toBe("CredentialsSignin")
          const cookies = await context.cookies()
          expect(cookies.find((c) => c.name === "authjs.session-token")).toBeUndefined()
          await context.close()
        })
      }

      if (mode === "production") {
        it("builds without a warning from Latchkey's packages", () => {
          const lines = buildLogs[name]!.split("\n").filter((line) => /latchkey/i.test(line))
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
