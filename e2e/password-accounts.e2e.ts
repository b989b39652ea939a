/**
 * Password accounts (the core's `Password` provider, `@latchkey/qwik`'s password actions) in the
 * demo, end to end, with JavaScript on and off: mail goes through a real SMTP server on loopback
 * (`SMTP_URL`), and the tests read it there.
 *
 * The production build has the whole flow: sign up → confirm the address from the mail (only the
 * page's POST consumes the link, a GET alone does not) → sign in → forgot → reset (another browser
 * of the user is signed out, the resetting one signed in) → change the password (the current one
 * is needed; the other browser is signed out) → change the address (proved by a mail to the new
 * one; the old one gets a notice) → the account page shows the password and refuses to remove it
 * as the last way in. Also: a sign-up with a taken address looks like a new one and mails the
 * owner; an unproven account's right password gets "send the link again". `vite dev` runs the
 * core path (sign up, confirm, sign in).
 */
import { randomUUID } from "node:crypto"
import type { Browser, Page } from "playwright-core"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { clickAndLoad, launch, open as openBrowser, pageErrors, sessionCookie } from "./browser.js"
import { type DemoServer, startDemo, startDemoDev } from "./demo-server.js"
import {
  confirmLink,
  forgotPassword,
  resetPassword,
  type SmtpMailbox,
  SUBJECTS,
  signInWithPassword,
  signUp,
  startSmtpMailbox,
  visibleText,
} from "./password-flows.js"

let smtp: SmtpMailbox
let production: DemoServer
let dev: DemoServer
let browser: Browser

beforeAll(async () => {
  smtp = await startSmtpMailbox()
  const env = { SMTP_URL: smtp.url, LATCHKEY_DEMO_OIDC: "off" }
  ;[production, dev, browser] = await Promise.all([startDemo(env), startDemoDev(env), launch()])
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await Promise.all([production?.stop(), dev?.stop()])
  await smtp?.close()
})

afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([])
})

const newAddress = (tag: string) => `${tag}-${randomUUID()}@example.com`

/** Whether `page`'s browser is signed in: the account page shows the address, or sends to sign-in. */
async function signedInAs(page: Page): Promise<string | null> {
  await page.goto("/account/")
  if (new URL(page.url()).pathname !== "/account/") return null
  return page.textContent('[data-testid="account-email"]')
}

/** Submit an account-page form and wait for its result (`<testId>-done` or `-error`), page loaded. */
async function submitAccount(page: Page, testId: string): Promise<"done" | "error"> {
  await clickAndLoad(page, `[data-testid="${testId}"]`)
  const result = await page.waitForSelector(
    `[data-testid="${testId}-done"], [data-testid="${testId}-error"]`,
  )
  return (await result.getAttribute("data-testid"))!.endsWith("-done") ? "done" : "error"
}

for (const js of [true, false]) {
  const mode = js ? "with JavaScript" : "without JavaScript"
  const open = (base: string) => openBrowser(browser, base, { javaScriptEnabled: js })

  describe(`password accounts, production build, ${mode}`, () => {
    it("signs up, confirms by mail, signs in, resets, changes the password and the address", async () => {
      const base = production.url
      const user = { email: newAddress("pw"), password: "correct horse battery" }
      const a = await open(base)

      // Sign up: the confirmation link comes by mail. Until it is confirmed, the right
      // password gets "confirm your address" and no session.
      await signUp(a.page, { ...user, name: "Ada Password" })
      const verify = await smtp.next(user.email, SUBJECTS.verify)
      expect(new URL(verify.link!).origin).toBe(base)
      await signInWithPassword(a.page, user)
      await a.page.waitForSelector('[data-testid="signin-unverified"]')
      expect(await sessionCookie(a.context)).toBeUndefined()
      // A GET of the link (a mail scanner) shows the confirm page and consumes nothing.
      await a.page.goto(verify.link!)
      await signInWithPassword(a.page, user)
      await a.page.waitForSelector('[data-testid="signin-unverified"]')
      // The page's POST confirms it; the link works once.
      expect((await confirmLink(a.page, verify.link!)).pathname).toBe("/signin/")
      expect((await confirmLink(a.page, verify.link!)).pathname).toBe("/auth/error")
      await signInWithPassword(a.page, user, undefined, "?callbackUrl=%2Faccount%2F")
      expect(await signedInAs(a.page)).toBe(user.email)
      await expect(a.page.isVisible('[data-testid="password-set"]')).resolves.toBe(true)

      // A second browser signed in as the same user.
      const b = await open(base)
      await signInWithPassword(b.page, user)
      expect(await signedInAs(b.page)).toBe(user.email)

      // Forgot → reset from a third browser: it ends up signed in, the other two signed out.
      const c = await open(base)
      await forgotPassword(c.page, user.email)
      const reset = await smtp.next(user.email, SUBJECTS.reset)
      // Opening the link consumes nothing: it still works after a GET.
      await c.page.goto(reset.link!)
      user.password = "a brand new passphrase"
      await resetPassword(c.page, reset.link!, user.password)
      expect(await signedInAs(c.page)).toBe(user.email)
      expect(await signedInAs(a.page)).toBeNull()
      expect(await signedInAs(b.page)).toBeNull()
      // The old password is gone, the new one signs in.
      const old = await signInWithPassword(b.page, { ...user, password: "correct horse battery" })
      expect(old.searchParams.get("error")).toBe("CredentialsSignin")
      await signInWithPassword(b.page, user)
      expect(await signedInAs(b.page)).toBe(user.email)

      // Change the password on the account page: the current one is needed.
      await c.page.goto("/account/")
      await c.page.fill(
        '[data-testid="password-method"] input[name="currentPassword"]',
        "not the password",
      )
      await c.page.fill('[data-testid="password-method"] input[name="password"]', "whatever 123")
      expect(await submitAccount(c.page, "password-change")).toBe("error")
      await c.page.goto("/account/")
      await c.page.fill(
        '[data-testid="password-method"] input[name="currentPassword"]',
        user.password,
      )
      user.password = "third passphrase here"
      await c.page.fill('[data-testid="password-method"] input[name="password"]', user.password)
      expect(await submitAccount(c.page, "password-change")).toBe("done")
      expect(await signedInAs(c.page)).toBe(user.email)
      expect(await signedInAs(b.page)).toBeNull()

      // Remove the password and set it again. (Email links are another way in here, so the
      // password is not the last method; the refusal of the last one is the account-page suite's.)
      await c.page.goto("/account/")
      const removeForm = c.page.locator("form", {
        has: c.page.locator('[data-testid="password-remove"]'),
      })
      await removeForm.locator('input[name="currentPassword"]').fill(user.password)
      expect(await submitAccount(c.page, "password-remove")).toBe("done")
      await c.page.goto("/account/")
      await c.page.waitForSelector('[data-testid="password-unset"]')
      await c.page.fill('[data-testid="password-method"] input[name="password"]', user.password)
      expect(await submitAccount(c.page, "password-add")).toBe("done")
      await c.page.goto("/account/")
      await c.page.waitForSelector('[data-testid="password-set"]')

      // Change the address: proved by a link to the new one; the old one gets a notice.
      const newEmail = newAddress("moved")
      await c.page.goto("/account/")
      await c.page.fill('[data-testid="email-address"] input[name="email"]', newEmail)
      await c.page.fill(
        '[data-testid="email-address"] input[name="currentPassword"]',
        user.password,
      )
      expect(await submitAccount(c.page, "email-change")).toBe("done")
      await smtp.next(user.email, SUBJECTS.emailChangeNotice)
      const change = await smtp.next(newEmail, SUBJECTS.emailChange)
      // Not moved until the link is confirmed.
      expect(await signedInAs(c.page)).toBe(user.email)
      await confirmLink(c.page, change.link!)
      expect(await signedInAs(c.page)).toBe(newEmail)
      const moved = await signInWithPassword(b.page, { ...user, email: newEmail })
      expect(moved.searchParams.get("error")).toBeNull()
      expect(await signedInAs(b.page)).toBe(newEmail)

      for (const s of [a, b, c]) await s.context.close()
    }, 240_000)

    it("answers a sign-up with a taken address like a new one, and mails the owner", async () => {
      const base = production.url
      const owner = { email: newAddress("owner"), password: "correct horse battery" }
      const fresh = { email: newAddress("fresh"), password: "correct horse battery" }
      const { context, page } = await open(base)
      await signUp(page, owner)
      await smtp.next(owner.email, SUBJECTS.verify)
      const newPage = visibleText(await signUp(page, fresh))
      const takenPage = visibleText(await signUp(page, { ...owner, password: "other password 1" }))
      expect(takenPage).toBe(newPage)
      await smtp.next(fresh.email, SUBJECTS.verify)
      // The owner gets a notice (with a reset link), not a second account or a new link.
      const notice = await smtp.next(owner.email, SUBJECTS.accountExists)
      expect(new URL(notice.link!).origin).toBe(base)
      expect(await smtp.unread(owner.email)).toEqual([])
      await context.close()
    }, 120_000)

    it("offers to send the link again to an unproven account's right password", async () => {
      const base = production.url
      const user = { email: newAddress("unproven"), password: "correct horse battery" }
      const { context, page } = await open(base)
      await signUp(page, user)
      await smtp.next(user.email, SUBJECTS.verify)
      // A wrong password of the same account is the plain refusal.
      const wrong = await signInWithPassword(page, { ...user, password: "wrong password!" })
      expect(wrong.searchParams.get("error")).toBe("CredentialsSignin")
      expect(wrong.searchParams.get("code")).not.toBe("email-unverified")
      const right = await signInWithPassword(page, user)
      expect(right.searchParams.get("code")).toBe("email-unverified")
      await page.fill('[data-testid="resend-email"]', user.email)
      await page.click('[data-testid="resend-verification"]')
      await page.waitForSelector('[data-testid="resend-done"]')
      const again = await smtp.next(user.email, SUBJECTS.verify)
      await confirmLink(page, again.link!)
      await signInWithPassword(page, user, undefined, "?callbackUrl=%2Faccount%2F")
      expect(await signedInAs(page)).toBe(user.email)
      await context.close()
    }, 120_000)
  })

  describe(`password accounts, vite dev, ${mode}`, () => {
    it("signs up, confirms the address from the mail and signs in", async () => {
      const session = await open(dev.url)
      const user = { email: newAddress("dev"), password: "correct horse battery" }
      await signUp(session.page, user)
      const verify = await smtp.next(user.email, SUBJECTS.verify, 60_000)
      expect(new URL(verify.link!).origin).toBe(dev.url)
      await newVerifiedSignIn(session.page, verify.link!, user)
      await session.context.close()
    }, 240_000)
  })
}

async function newVerifiedSignIn(
  page: Page,
  link: string,
  user: { email: string; password: string },
): Promise<void> {
  expect((await confirmLink(page, link)).pathname).toBe("/signin/")
  await signInWithPassword(page, user, undefined, "?callbackUrl=%2Faccount%2F")
  expect(await signedInAs(page)).toBe(user.email)
}
