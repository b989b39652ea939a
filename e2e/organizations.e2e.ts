/**
 * Organizations in the demo (`@latchkey/qwik`'s `organizationActions()` on the account page, the
 * `/team/` page guarded by `requireOrganizationPermission`), with JavaScript on and off, for
 * database sessions (the default demo) and JWT sessions (a second demo): an owner creates an
 * organization and invites a second user by mail (the dev mailbox); the second accepts on the
 * core's page and sees it; the owner gives them the app role `billing` (the team page shows what
 * it allows) and removes them; the removed member's page loses access on its next request
 * while they stay signed in. No invitation token on any page but the accept page itself.
 */
import { randomUUID } from "node:crypto"
import type { Browser, Page } from "playwright-core"
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest"
import { clickAndLoad, launch, open, pageErrors } from "./browser.js"
import { type DemoServer, startDemo } from "./demo-server.js"
import { devMailbox, newDemoUser } from "./password-flows.js"

let jwtDemo: DemoServer
let browser: Browser

beforeAll(async () => {
  ;[jwtDemo, browser] = await Promise.all([
    startDemo({ LATCHKEY_DEMO_SESSIONS: "jwt", LATCHKEY_DEMO_OIDC: "off" }),
    launch(),
  ])
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await jwtDemo?.stop()
})

afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([])
})

/** Submit an account-page form and wait for its result (`<testId>-done` or `-error`). */
async function submit(page: Page, selector: string, testId: string): Promise<"done" | "error"> {
  await clickAndLoad(page, selector)
  const result = await page.waitForSelector(
    `[data-testid="${testId}-done"], [data-testid="${testId}-error"]`,
  )
  return (await result.getAttribute("data-testid"))!.endsWith("-done") ? "done" : "error"
}

const member = (page: Page, email: string) =>
  page.locator(`[data-testid="member"][data-email="${email}"]`)

for (const sessions of ["database", "jwt"] as const) {
  for (const js of [true, false]) {
    describe(`organizations, ${sessions} sessions, JavaScript ${js ? "on" : "off"}`, () => {
      const base = () => (sessions === "jwt" ? jwtDemo.url : inject("baseURL"))

      it("create, invite by mail, accept, change the role, remove: the removed member loses access, still signed in", async () => {
        const owner = await open(browser, base(), { javaScriptEnabled: js })
        const guest = await open(browser, base(), { javaScriptEnabled: js })
        const tag = randomUUID().slice(0, 8)
        const ownerUser = { email: `owner-${tag}@example.com`, password: "owner password 123" }
        const guestUser = { email: `guest-${tag}@example.com`, password: "guest password 123" }
        await newDemoUser(owner.page, ownerUser)
        await newDemoUser(guest.page, guestUser)

        // The owner creates an organization: it is listed, active, with them as its owner.
        await owner.page.fill('[data-testid="organization-name"]', `Acme ${tag}`)
        await owner.page.fill('[data-testid="organization-slug"]', `ACME-${tag}`)
        expect(
          await submit(owner.page, '[data-testid="organization-create"]', "organization-create"),
        ).toBe("done")
        const org = owner.page.locator(`[data-testid="organization"][data-slug="acme-${tag}"]`)
        await org.locator('[data-testid="organization-active"]').waitFor()
        expect(
          await member(owner.page, ownerUser.email)
            .locator('[data-testid="member-role"]')
            .textContent(),
        ).toBe("owner")

        // An invitation by mail, to the dev mailbox.
        await owner.page.fill('[data-testid="invite-email"]', guestUser.email)
        expect(await submit(owner.page, '[data-testid="invite-send"]', "invite")).toBe("done")
        await owner.page
          .locator('[data-testid="invitation"]', { hasText: guestUser.email })
          .waitFor()
        const html = await owner.page.content()
        const mail = await devMailbox(guest.page).next(guestUser.email, /^Join /)
        const token = new URL(mail.link!).searchParams.get("token")!
        expect(html).not.toContain(token)

        // The guest opens the link (signed in as the invited, proven address) and accepts.
        await guest.page.goto(mail.link!)
        await guest.page.getByText(`Acme ${tag}`).waitFor()
        await clickAndLoad(guest.page, 'button:has-text("Accept the invitation")')
        await guest.page.waitForURL((url) => !url.pathname.startsWith("/auth/organization"))
        await guest.page.goto("/account/")
        const theirs = guest.page.locator(`[data-testid="organization"][data-slug="acme-${tag}"]`)
        expect(await theirs.locator('[data-testid="organization-role"]').textContent()).toContain(
          "member",
        )
        await guest.page.goto("/team/")
        expect(await guest.page.textContent('[data-testid="team-name"]')).toBe(`Acme ${tag}`)
        expect(await guest.page.isVisible('[data-testid="team-invoices"]')).toBe(false)
        // The link is single-use.
        await guest.page.goto(mail.link!)
        await guest.page.getByRole("alert").waitFor()

        // The owner gives them the app role `billing`: the team page shows what it allows.
        await owner.page.goto("/account/")
        await member(owner.page, guestUser.email)
          .locator('[data-testid="member-role-select"]')
          .selectOption("billing")
        expect(
          await submit(
            owner.page,
            `[data-testid="member"][data-email="${guestUser.email}"] [data-testid="member-role-save"]`,
            "member-role",
          ),
        ).toBe("done")
        await guest.page.goto("/team/")
        expect(await guest.page.textContent('[data-testid="team-role"]')).toBe("billing")
        await guest.page.locator('[data-testid="team-invoices"]').waitFor()

        // The last owner cannot leave.
        await owner.page.goto("/account/")
        expect(
          await submit(owner.page, '[data-testid="organization-leave"]', "organization-leave"),
        ).toBe("error")
        expect(await owner.page.textContent('[data-testid="organization-leave-error"]')).toContain(
          "keeps an owner",
        )

        // Removed: the member's next request is refused, and they are still signed in.
        await owner.page.goto("/account/")
        expect(
          await submit(
            owner.page,
            `[data-testid="member"][data-email="${guestUser.email}"] [data-testid="member-remove"]`,
            "member-remove",
          ),
        ).toBe("done")
        expect(await member(owner.page, guestUser.email).count()).toBe(0)
        const refused = await guest.page.goto("/team/")
        expect(refused?.status()).toBe(403)
        await guest.page.goto("/account/")
        expect(await guest.page.textContent('[data-testid="account-email"]')).toBe(guestUser.email)
        await guest.page.locator('[data-testid="no-organizations"]').waitFor()

        await owner.context.close()
        await guest.context.close()
      })
    })
  }
}
