/**
 * Two-factor sign-in in a fixture app (the own-users app plus `fixtures/two-factor`: JWT sessions,
 * the memory adapter, `twoFactorActions()` on /account/two-factor/), under `vite dev` and as a
 * production build, with JavaScript on and off: enroll with a code computed from the secret the
 * page shows, sign out, sign in with password + code, with a recovery code, and a wrong code.
 */

import { TOTP } from "otpauth"
import type { Browser, Page } from "playwright-core"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { clickAndLoad, launch, open, pageErrors } from "./browser.js"
import {
  createApp,
  type FixtureApp,
  type RunningApp,
  removeFixtures,
  typeCheck,
} from "./fixture-apps.js"
import { ADA, serveApp, signInWith } from "./quickstart-flows.js"

const SETUP_TIMEOUT = 240_000

let browser: Browser
let app: FixtureApp

beforeAll(async () => {
  browser = await launch()
  app = await createApp("two-factor", ["own-users", "two-factor"])
}, SETUP_TIMEOUT)

afterAll(async () => {
  await browser?.close()
  if (!process.env.E2E_KEEP_FIXTURES) removeFixtures()
})

afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([])
})

/** The code for `secret`, `steps` time steps from now (each code is accepted once). */
function codeFor(secret: string, steps = 0): string {
  return new TOTP({ secret, digits: 6, period: 30 }).generate({
    timestamp: Date.now() + steps * 30_000,
  })
}

async function signOut(page: Page) {
  await page.goto("/")
  await clickAndLoad(page, 'button:has-text("Sign out")')
  await page.getByRole("button", { name: "Sign in" }).waitFor()
}

it("the fixture type-checks as written (tsc --noEmit)", async () => {
  await expect(typeCheck(app)).resolves.toBeUndefined()
}, 120_000)

for (const mode of ["dev", "production"] as const) {
  describe(`two-factor sign-in, ${mode}`, () => {
    let server: RunningApp
    beforeAll(async () => {
      // A server per mode: its memory adapter starts with Ada and no second factor.
      server = await serveApp(app, mode)
    }, SETUP_TIMEOUT)
    afterAll(async () => {
      await server?.stop()
    })

    for (const js of [true, false]) {
      it(`enroll, then password + code, a recovery code, a wrong code (JavaScript ${js ? "on" : "off"})`, async () => {
        const { context, page } = await open(browser, server.url, { javaScriptEnabled: js })
        // Each run starts with the second factor off (the previous run turns it off at the end).
        await page.goto("/")
        await signInWith(page, ADA)
        await page.getByText(`Signed in as ${ADA.email}`).waitFor()

        await page.goto("/account/two-factor/")
        expect(await page.textContent('[data-testid="two-factor-state"]')).toBe("off")
        await clickAndLoad(page, 'button:has-text("Turn on")')
        const secret = (await page.textContent('[data-testid="two-factor-secret"]'))?.trim() ?? ""
        expect(secret).toMatch(/^[A-Z2-7]{32}$/)
        expect(await page.locator("svg").count()).toBeGreaterThan(0)
        await page.fill('input[name="code"]', codeFor(secret))
        await clickAndLoad(page, 'button:has-text("Confirm")')
        await page.locator('[data-testid="recovery-codes"]').waitFor()
        const codes = await page.locator('[data-testid="recovery-codes"] li').allTextContents()
        expect(codes).toHaveLength(10)
        expect(await page.textContent('[data-testid="two-factor-state"]')).toBe("on")

        // Password, then the built-in code page; a wrong code is refused there.
        await signOut(page)
        await signInWith(page, ADA)
        await page.waitForURL((url) => url.pathname === "/auth/two-factor")
        const pending = await context.cookies()
        expect(pending.find((c) => c.name === "authjs.session-token")).toBeUndefined()
        expect((await page.request.get("/auth/session").then((r) => r.json())) ?? null).toBeNull()
        // The app's own page (useSession) sees no session either.
        expect(await page.request.get("/").then((r) => r.text())).not.toContain("Signed in as")
        const wrong = codeFor(secret, 1) === "000000" ? "111111" : "000000"
        await page.fill('input[name="code"]', wrong)
        await clickAndLoad(page, 'button:has-text("Verify")')
        expect(new URL(page.url()).searchParams.get("error")).toBe("InvalidTwoFactorCode")
        await page.getByRole("alert").waitFor()
        await page.fill('input[name="code"]', codeFor(secret, 1))
        await clickAndLoad(page, 'button:has-text("Verify")')
        await page.getByText(`Signed in as ${ADA.email}`).waitFor()

        // A recovery code, once.
        await signOut(page)
        await signInWith(page, ADA)
        await page.waitForURL((url) => url.pathname === "/auth/two-factor")
        await page.fill('input[name="recoveryCode"]', codes[0]!)
        await clickAndLoad(page, 'button:has-text("Use recovery code")')
        await page.getByText(`Signed in as ${ADA.email}`).waitFor()

        // Turned off again from the page (this sign-in used a second factor, just now).
        await page.goto("/account/two-factor/")
        await clickAndLoad(page, 'button:has-text("Turn off")')
        // A locator, not waitForFunction: with JavaScript off the page runs no timers, so
        // waitForFunction checks once and never again.
        await page.locator('[data-testid="two-factor-state"]', { hasText: /^off$/ }).waitFor()
        await context.close()
      })
    }
  })
}
