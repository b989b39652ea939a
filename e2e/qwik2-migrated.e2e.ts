/**
 * The migrated `@auth/qwik` app (`fixtures/migrated`) moved on to Qwik 2 as the README's "From
 * Qwik 1" note says (import names swapped): OAuth through a real OpenID Provider on loopback with
 * `signIn.submit()` and `<Form>`, credentials sign-in and sign-out updating the page without a
 * document load when JavaScript is on, and a refused password landing on the built-in sign-in
 * page (a target under `basePath`, which Qwik 2's client cannot reach with `goto()`).
 */
import type { Page } from "playwright-core"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
// @ts-expect-error: a plain ES module of the demo, shared with these tests
import { startLocalOidc } from "../examples/qwik-app/scripts/local-oidc.mjs"
import { launch, open, pageErrors } from "./browser.js"
import {
  buildProduction,
  createApp,
  type FixtureApp,
  newSecret,
  type RunningApp,
  removeFixtures,
  reservePort,
  startDev,
  startProduction,
  writeDotEnv,
} from "./fixture-apps.js"
import { GRACE, submitCredentials } from "./migrated-steps.js"
import { qwik2 } from "./qwik2-apps.js"

const SETUP_TIMEOUT = 300_000

let browser: Awaited<ReturnType<typeof launch>>
let app: FixtureApp
let oidc: { issuer: string; clientId: string; clientSecret: string; close(): Promise<void> }
const ports = { dev: 0, production: 0 }
const servers: Partial<Record<keyof typeof ports, RunningApp>> = {}

beforeAll(async () => {
  browser = await launch()
  ports.dev = await reservePort()
  ports.production = await reservePort()
  oidc = await startLocalOidc({
    redirectUris: Object.values(ports).map((p) => `http://127.0.0.1:${p}/auth/callback/local`),
  })
  app = await createApp("migrated-qwik2", ["migrated"], [], qwik2)
}, SETUP_TIMEOUT)

afterAll(async () => {
  await Promise.all(Object.values(servers).map((server) => server?.stop()))
  await oidc?.close()
  await browser?.close()
  if (!process.env.E2E_KEEP_FIXTURES) removeFixtures()
})

afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([])
})

/** Sign in at the OpenID Provider's own page, then come back to the protected route. */
async function viaProvider(page: Page, base: string, click: string, email: string) {
  await page.goto("/")
  await Promise.all([page.waitForURL((url) => url.origin === oidc.issuer), page.click(click)])
  await page.fill('input[name="name"]', "Grace Hopper")
  await page.fill('input[name="email"]', email)
  await Promise.all([page.waitForURL(`${base}/protected/`), page.click('button[value="login"]')])
  await page.getByText("Protected: Grace Hopper").waitFor()
  expect(await page.textContent('[data-testid="user"]')).toBe(email)
}

for (const mode of ["dev", "production"] as const) {
  describe(`the migrated app on Qwik 2, ${mode}`, () => {
    let base = ""
    beforeAll(async () => {
      const env = {
        AUTH_SECRET: await newSecret(app),
        AUTH_URL: `http://127.0.0.1:${ports[mode]}`,
        AUTH_LOCAL_ID: oidc.clientId,
        AUTH_LOCAL_SECRET: oidc.clientSecret,
        AUTH_LOCAL_ISSUER: oidc.issuer,
      }
      writeDotEnv(app, env)
      if (mode === "dev") servers.dev = await startDev(app, ports.dev)
      else {
        await buildProduction(app)
        servers.production = await startProduction(app, ports.production, env)
      }
      base = servers[mode]!.url
    }, SETUP_TIMEOUT)
    afterAll(async () => {
      await servers[mode]?.stop()
    })
    if (mode === "dev") {
      // Qwik 2's dev server adds Vite's client scripts to every HTML answer, the core's built-in
      // pages included, whose Content-Security-Policy refuses them: expected under `vite dev` only
      // (this hook runs before the file's own check of `pageErrors`).
      afterEach(() => {
        const kept = pageErrors.filter(
          (e) => !/violates the following Content Security Policy/.test(e),
        )
        pageErrors.splice(0, pageErrors.length, ...kept)
      })
    }

    it("signs in with signIn.submit({ providerId }) from onClick$, through the provider", async () => {
      const { context, page } = await open(browser, base)
      await viaProvider(page, base, '[data-testid="submit-local"]', `submit-${mode}@example.org`)
      await context.close()
    })

    for (const js of [true, false]) {
      const how = js ? "with JavaScript" : "without JavaScript"

      it(`signs in with a <Form action={signIn}> to the provider, ${how}`, async () => {
        const { context, page } = await open(browser, base, { javaScriptEnabled: js })
        await viaProvider(
          page,
          base,
          '[data-testid="form-local"]',
          `form-${mode}-${js}@example.org`,
        )
        await context.close()
      })

      // In place: a production build with JavaScript. Qwik 2's dev client fetches no loader after an
      // action or a first client navigation, so the dev server keeps page loads (src/redirect.ts).
      const inPlace = js && mode === "production"
      it(`signs in with the credentials form and out again, ${inPlace ? "in place" : "with page loads"}, ${how}`, async () => {
        const { context, page } = await open(browser, base, { javaScriptEnabled: js })
        const documents: string[] = []
        page.on("load", () => documents.push(new URL(page.url()).pathname))
        await page.goto("/")
        // In place, nothing below loads a document: a marker on `window` survives it all.
        if (inPlace) await page.evaluate(() => Object.assign(window, { latchkeyMarker: 1 }))
        // Another app page: Qwik 2's JSON redirect, followed by client navigation.
        await submitCredentials(page, GRACE.password, `${base}/protected/`)
        await page.getByText("Protected: Grace Hopper").waitFor()
        expect(await page.textContent('[data-testid="user"]')).toBe(GRACE.email)
        // The page the form is on (sign-out to "/" from "/"): no redirect, the session re-fetched.
        if (inPlace) await page.click("text=Home")
        else await page.goto("/")
        await page.getByText("Sign in with Local IdP (form)").waitFor()
        await page.click("text=Sign Out")
        await page.getByText("signed out").waitFor()
        expect(new URL(page.url()).pathname).toBe("/")
        if (inPlace) {
          expect(
            await page.evaluate(() => (window as { latchkeyMarker?: number }).latchkeyMarker),
          ).toBe(1)
          expect(documents).toEqual(["/"])
        } else {
          // The page's text can show before its `load` event fires: wait for the event.
          await expect.poll(() => documents).toEqual(["/", "/protected/", "/", "/"])
        }
        await page.goto("/protected/")
        expect(new URL(page.url()).pathname).toBe("/auth/signin")
        await context.close()
      })

      it(`shows a wrong password on the built-in sign-in page, ${how}`, async () => {
        const { context, page } = await open(browser, base, { javaScriptEnabled: js })
        await page.goto("/")
        await page.fill('input[name="options.email"]', "grace@example.com")
        await page.fill('input[name="options.password"]', "not-her-password")
        await Promise.all([
          page.waitForURL((url) => url.pathname === "/auth/signin"),
          page.click('[data-testid="form-credentials"]'),
        ])
        expect(new URL(page.url()).searchParams.get("error")).toBe("CredentialsSignin")
        expect(await page.textContent("body")).toContain("Sign in failed")
        await context.close()
      })
    }
  })
}
