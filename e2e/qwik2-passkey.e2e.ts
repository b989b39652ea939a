/**
 * Passkeys on Qwik 2 through `@latchkey/qwik2`'s browser helpers (`registerPasskey`,
 * `signInWithPasskey`), in Chromium with a virtual authenticator: create an account with a
 * passkey, see it listed by the account loader and rename it (its last-method delete refused),
 * sign out, sign in with it; and a request the authenticator cannot answer is shown on the page.
 * The app (`fixtures/passkey` on the quick start's database, moved to Qwik 2 as the README's
 * "From Qwik 1" note says) runs under `vite dev` and as a production build.
 * Passkeys need JavaScript, so it is on throughout.
 */
import { mkdirSync } from "node:fs"
import { join } from "node:path"
import type { Browser, Page } from "playwright-core"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { launch, open, pageErrors } from "./browser.js"
import {
  buildProduction,
  createApp,
  type FixtureApp,
  newSecret,
  pglitePackage,
  type RunningApp,
  removeFixtures,
  reservePort,
  startDev,
  startProduction,
  typeCheck,
  writeDotEnv,
} from "./fixture-apps.js"
import { qwik2 } from "./qwik2-apps.js"
import { addVirtualAuthenticator, press } from "./webauthn.js"

const SETUP_TIMEOUT = 300_000

let browser: Browser
let app: FixtureApp
const servers: Partial<Record<"dev" | "production", RunningApp>> = {}

beforeAll(async () => {
  browser = await launch()
  app = await createApp(
    "passkey-qwik2",
    ["quickstart", "passkey"],
    ["@latchkey/adapter-postgres", pglitePackage()],
    qwik2,
  )
  mkdirSync(join(app.dir, ".data"), { recursive: true })
}, SETUP_TIMEOUT)

afterAll(async () => {
  await Promise.all(Object.values(servers).map((server) => server.stop()))
  await browser?.close()
  if (!process.env.E2E_KEEP_FIXTURES) removeFixtures()
})

afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([])
})

async function sessionEmail(page: Page): Promise<string | null> {
  const res = await page.request.get("/auth/session")
  const body = (await res.json()) as { user?: { email?: string } } | null
  return body?.user?.email ?? null
}

it("type-checks as written (tsc --noEmit)", async () => {
  await expect(typeCheck(app)).resolves.toBeUndefined()
}, 120_000)

for (const mode of ["dev", "production"] as const) {
  describe(`passkeys on Qwik 2, ${mode}`, () => {
    let base = ""
    beforeAll(async () => {
      const port = await reservePort()
      // `localhost`, not the IP: an IP address cannot be a WebAuthn relying-party id, and
      // http://localhost is a secure context.
      base = `http://localhost:${port}`
      const env = { AUTH_SECRET: await newSecret(app), AUTH_URL: base }
      writeDotEnv(app, env)
      if (mode === "dev") servers.dev = await startDev(app, port)
      else {
        await buildProduction(app)
        servers.production = await startProduction(app, port, env)
      }
    }, SETUP_TIMEOUT)
    afterAll(async () => {
      await servers[mode]?.stop()
    })

    it("creates an account with registerPasskey, signs out, signs in with signInWithPasskey", async () => {
      const { context, page } = await open(browser, base)
      const { cdp, authenticatorId } = await addVirtualAuthenticator(page)
      const email = `ann-${mode}-${crypto.randomUUID().slice(0, 8)}@example.com`

      await page.goto("/")
      await page.fill('input[name="email"]', email)
      await press(page, '[data-testid="register"]')
      await page.locator('[data-testid="user"]').waitFor()
      expect(await page.textContent('[data-testid="user"]')).toBe(email)
      expect(await sessionEmail(page)).toBe(email)
      const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId })
      expect(credentials).toHaveLength(1)
      expect(credentials[0]!.isResidentCredential).toBe(true)

      // The account loader lists it; renaming re-runs that loader (Qwik 2's loaders re-run only
      // when an action invalidates them), so the new name shows without a reload.
      await page.locator('[data-testid="passkey-name"]').waitFor()
      expect(await page.textContent('[data-testid="passkey-name"]')).toBe("Unnamed")
      await page.fill('[data-testid="passkey-rename-input"]', `Key ${mode}`)
      await page.click('[data-testid="passkey-rename"]')
      await expect.poll(() => page.textContent('[data-testid="passkey-name"]')).toBe(`Key ${mode}`)
      // The only way into this account: deleting it is refused, with the reason shown.
      await page.click('[data-testid="passkey-delete"]')
      await expect
        .poll(() => page.textContent('[data-testid="account-error"]'))
        .toMatch(/last way to sign in/)
      expect(await page.locator('[data-testid="passkey-name"]').count()).toBe(1)

      // requireRecentAuth in a route's onRequest: a fresh sign-in passes; a missing factor is
      // sent to the sign-in page (pages.signIn "/") to sign in again, and back.
      await page.goto("/recent/")
      expect(await page.textContent('[data-testid="recent"]')).toBe("Signed in recently")
      await page.goto("/recent/?factor=otp")
      const reauth = new URL(page.url())
      expect(reauth.pathname).toBe("/")
      expect(reauth.searchParams.get("callbackUrl")).toBe("/recent/?factor=otp")
      expect(reauth.searchParams.get("reauth")).toBe("1")

      await page.click('button:text("Sign out")')
      await page.locator('[data-testid="signin"]').waitFor()
      expect(await sessionEmail(page)).toBeNull()
      await page.goto("/recent/")
      const signedOut = new URL(page.url())
      expect(signedOut.searchParams.get("callbackUrl")).toBe("/recent/")
      expect(signedOut.searchParams.has("reauth")).toBe(false)

      await press(page, '[data-testid="signin"]')
      await page.locator('[data-testid="user"]').waitFor()
      expect(await page.textContent('[data-testid="user"]')).toBe(email)
      expect(await sessionEmail(page)).toBe(email)
      const after = await cdp.send("WebAuthn.getCredentials", { authenticatorId })
      expect(after.credentials[0]!.signCount).toBeGreaterThan(0)
      await context.close()
    })

    it("shows why signInWithPasskey failed when the authenticator has no passkey for the site", async () => {
      const { context, page } = await open(browser, base)
      await addVirtualAuthenticator(page)
      await page.goto("/")
      await press(page, '[data-testid="signin"]')
      await expect
        .poll(() => page.locator('[data-testid="passkey-error"]').textContent())
        .toMatch(/cancelled or timed out/)
      expect(await sessionEmail(page)).toBeNull()
      await context.close()
    })
  })
}
