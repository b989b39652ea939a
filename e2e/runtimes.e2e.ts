/**
 * The README's "keeping your own users table" app (`fixtures/own-users`: credentials, JWT
 * sessions) on every runtime Qwik City deploys to:
 * built with each Qwik City adapter and served by Node, Deno, Bun, Cloudflare's workerd (through
 * `wrangler pages dev`, without `nodejs_compat` or any other compatibility flag) and Vercel's
 * `edge-runtime`. On each: the `<Form>` without JavaScript as plain HTTP (wrong password, right
 * password, the session on the page, sign-out), then one Chromium pass with JavaScript on.
 *
 * One fixture install, one client build, one server build per adapter; the runtimes run one
 * after another.
 */
import type { Browser } from "playwright-core"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { clickAndLoad, launch, open, pageErrors } from "./browser.js"
import {
  createApp,
  type FixtureApp,
  newSecret,
  type RunningApp,
  removeFixtures,
  reservePort,
} from "./fixture-apps.js"
import { FormClient } from "./form-client.js"
import { ADA, signInWith } from "./quickstart-flows.js"
import {
  type AppEnv,
  buildClient,
  buildServer,
  installRuntimeTools,
  selectedRuntimes,
} from "./runtimes.js"

const SESSION_COOKIE = "authjs.session-token"
const SETUP_TIMEOUT = 240_000

let browser: Browser
let app: FixtureApp
let secret: string

beforeAll(async () => {
  // The fixture's install and client build overlap the runtimes' install (mostly disk work).
  const [created] = await Promise.all([
    createApp("runtimes", ["own-users", "runtime-adapters"]).then(async (created) => {
      await buildClient(created)
      return created
    }),
    installRuntimeTools(),
  ])
  app = created
  secret = await newSecret(app)
  browser = await launch()
}, SETUP_TIMEOUT)

afterAll(async () => {
  await browser?.close()
  if (!process.env.E2E_KEEP_FIXTURES) removeFixtures()
})

afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([])
})

/** The quick start's sign-in form, filled in: the fields a user types. */
const typed = (password: string) => ({
  "options.email": ADA.email,
  "options.password": password,
})

for (const runtime of selectedRuntimes()) {
  describe(runtime.name, () => {
    let server: RunningApp

    beforeAll(async () => {
      await buildServer(app, runtime.adapter)
      const port = await reservePort()
      const env: AppEnv = { AUTH_SECRET: secret, AUTH_URL: `http://127.0.0.1:${port}` }
      server = await runtime.start(app, port, env)
    }, SETUP_TIMEOUT)

    afterAll(async () => {
      await server?.stop()
    })

    it("refuses a wrong password: back to the form with CredentialsSignin, no session (no JavaScript)", async () => {
      const client = new FormClient(server.url)
      const answer = await client.submit(await client.page("/"), typed("not the password"))
      expect(answer.status).toBe(303)
      expect(answer.location?.pathname).toBe("/")
      expect(answer.location?.searchParams.get("error")).toBe("CredentialsSignin")
      expect(client.cookie(SESSION_COOKIE)).toBeUndefined()
      const page = await client.page(`${answer.location?.pathname}${answer.location?.search}`)
      expect(page).toContain("Sign-in failed (CredentialsSignin)")
      expect(server.output()).not.toMatch(/is not defined|error=Configuration/)
    })

    it("signs in with the right password, shows the session, and signs out (no JavaScript)", async () => {
      const client = new FormClient(server.url)
      const signIn = await client.submit(await client.page("/"), typed(ADA.password))
      expect(signIn.status).toBe(303)
      expect(signIn.location?.href).toBe(`${server.url}/`)
      const cookie = signIn.setCookies.find((c) => c.startsWith(`${SESSION_COOKIE}=`))
      expect(cookie).toMatch(/; HttpOnly/i)

      const signedIn = await client.page("/")
      expect(signedIn).toContain(`Signed in as ${ADA.email}`)
      expect(signedIn).not.toContain(client.cookie(SESSION_COOKIE))

      const signOut = await client.submit(signedIn)
      expect(signOut.status).toBe(303)
      expect(client.cookie(SESSION_COOKIE)).toBeUndefined()
      const after = await client.page("/")
      expect(after).not.toContain("Signed in as")
      expect(after).toContain('name="options.password"')
    })

    it("signs in (after a wrong password) and out in Chromium with JavaScript", async () => {
      const { context, page } = await open(browser, server.url)
      await page.goto("/")
      await signInWith(page, { ...ADA, password: "not the password" })
      await page.getByText("Sign-in failed (CredentialsSignin)").waitFor()

      await signInWith(page, ADA)
      await page.getByText(`Signed in as ${ADA.email}`).waitFor()
      const cookies = await context.cookies()
      expect(cookies.find((c) => c.name === SESSION_COOKIE)?.httpOnly).toBe(true)
      await page.reload()
      await page.getByText(`Signed in as ${ADA.email}`).waitFor()

      await clickAndLoad(page, "button")
      await page.getByRole("button", { name: "Sign in" }).waitFor()
      const after = await context.cookies()
      expect(after.find((c) => c.name === SESSION_COOKIE)).toBeUndefined()
      await context.close()
    })

    it(
      runtime.isolates
        ? "warns once that the memory store holds per isolate (store-per-isolate), naming what"
        : "does not warn about isolates: one long-lived process",
      () => {
        // By now the app has served many requests, each resolving its config.
        const lines =
          server.output().match(/\[latchkey\]\[warn\]\[store-per-isolate\][^\n]*/g) ?? []
        if (!runtime.isolates) return expect(lines).toEqual([])
        expect(lines).toHaveLength(1)
        expect(lines[0]).toContain("sign-in rate limits count per isolate")
        expect(lines[0]).toContain("@latchkey/store-durable-object")
      },
    )
  })
}
