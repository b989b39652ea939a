/**
 * Organizations on Qwik 2 through `@latchkey/qwik2`'s `organizationActions()` and
 * `requireOrganizationPermission`, in a fixture app (the own-users app's sign-in page with
 * `fixtures/organizations`: two users in the memory adapter, invitations kept in memory and
 * listed at /mailbox/, written for Qwik 1 and
 * moved to Qwik 2 as the README's "From Qwik 1" note says), as a production build, JavaScript on
 * and off: Ada creates an organization and invites Bob; Bob accepts on the core's page and sees
 * it; Ada makes him `billing` (the team page shows what it allows) and removes him; Bob's team
 * page answers 403 on his next request while he stays signed in.
 */
import type { Browser, Page } from "playwright-core"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { clickAndLoad, launch, open, pageErrors } from "./browser.js"
import { createApp, type FixtureApp, type RunningApp, removeFixtures } from "./fixture-apps.js"
import { serveApp, signInWith } from "./quickstart-flows.js"
import { qwik2 } from "./qwik2-apps.js"

const SETUP_TIMEOUT = 300_000
const ADA = { email: "ada@example.com", password: "ada password 123" }
const BOB = { email: "bob@example.com", password: "bob password 123" }

let browser: Browser
let app: FixtureApp
let server: RunningApp

beforeAll(async () => {
  browser = await launch()
  app = await createApp("qwik2-organizations", ["own-users", "organizations"], [], qwik2)
  server = await serveApp(app, "production")
}, SETUP_TIMEOUT)

afterAll(async () => {
  await browser?.close()
  await server?.stop()
  if (!process.env.E2E_KEEP_FIXTURES) removeFixtures()
})

afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([])
})

const member = (page: Page, email: string) =>
  page.locator(`[data-testid="member"][data-email="${email}"]`)

describe("organizations on Qwik 2, production build", () => {
  for (const js of [true, false]) {
    it(`create, invite, accept, change the role, remove (JavaScript ${js ? "on" : "off"})`, async () => {
      const ada = await open(browser, server.url, { javaScriptEnabled: js })
      const bob = await open(browser, server.url, { javaScriptEnabled: js })
      const slug = `acme-${js ? "on" : "off"}`
      for (const [session, who] of [
        [ada, ADA],
        [bob, BOB],
      ] as const) {
        await session.page.goto("/")
        await signInWith(session.page, who)
        await session.page.getByText(`Signed in as ${who.email}`).waitFor()
      }

      await ada.page.goto("/orgs/")
      await ada.page.fill('input[name="name"]', `Acme ${slug}`)
      await ada.page.fill('input[name="slug"]', slug)
      await clickAndLoad(ada.page, '[data-testid="create"]')
      await ada.page.locator('[data-testid="active"]', { hasText: `Acme ${slug}` }).waitFor()
      await ada.page.fill('input[name="email"]', BOB.email)
      await clickAndLoad(ada.page, '[data-testid="invite"]')
      await ada.page.locator('[data-testid="invited"]').waitFor()

      await bob.page.goto("/mailbox/")
      const link = await bob.page
        .locator(`[data-testid="mail"][data-to="${BOB.email}"] [data-testid="mail-link"]`)
        .last()
        .getAttribute("href")
      await bob.page.goto(link!)
      await clickAndLoad(bob.page, 'button:has-text("Accept the invitation")')
      await bob.page.goto("/orgs/")
      await bob.page.locator('[data-testid="organization"]', { hasText: `Acme ${slug}` }).waitFor()
      await bob.page.goto("/team/")
      expect(await bob.page.textContent('[data-testid="team-role"]')).toBe("member")

      await ada.page.goto("/orgs/")
      await clickAndLoad(
        ada.page,
        `[data-testid="member"][data-email="${BOB.email}"] [data-testid="make-billing"]`,
      )
      await member(ada.page, BOB.email)
        .locator('[data-testid="member-role"]', { hasText: "billing" })
        .waitFor()
      await bob.page.goto("/team/")
      await bob.page.locator('[data-testid="team-invoices"]').waitFor()

      // The last owner cannot remove herself: the core's message is shown.
      await clickAndLoad(
        ada.page,
        `[data-testid="member"][data-email="${ADA.email}"] [data-testid="remove"]`,
      )
      expect(await ada.page.getByRole("alert").textContent()).toContain("keeps an owner")

      await ada.page.goto("/orgs/")
      await clickAndLoad(
        ada.page,
        `[data-testid="member"][data-email="${BOB.email}"] [data-testid="remove"]`,
      )
      await member(ada.page, BOB.email).waitFor({ state: "detached" })
      const refused = await bob.page.goto("/team/")
      expect(refused?.status()).toBe(403)
      await bob.page.goto("/")
      await bob.page.getByText(`Signed in as ${BOB.email}`).waitFor()

      await ada.context.close()
      await bob.context.close()
    })
  }
})
