/**
 * Email magic links through the demo's dev mailbox, with JavaScript on (Qwik client navigation)
 * and off (plain form posts): ask for a link, find it at `/dev/mailbox/`, confirm, signed in; the
 * same link a second time is refused; every address gets its own link.
 */
import { randomUUID } from "node:crypto"
import type { Page } from "playwright-core"
import { describe, expect, inject, it } from "vitest"
import { screenshots, sessionCookie, useBrowser } from "./browser.js"

const baseURL = inject("baseURL")
const openPage = useBrowser(baseURL)

/** Ask for a link on the sign-in page; the browser lands on the verify-request page. */
async function requestLink(page: Page, email: string): Promise<void> {
  await page.goto("/signin/")
  await page.fill('[data-testid="email-link-address"]', email)
  await Promise.all([
    page.waitForURL((url) => url.pathname === "/verify-request/"),
    page.click('[data-testid="email-link-submit"]'),
  ])
  await page.waitForSelector('[data-testid="verify-request-title"]')
}

/** The newest link in the dev mailbox for `email`, read from the page. */
async function newestLink(page: Page, email: string): Promise<string> {
  if (new URL(page.url()).pathname !== "/dev/mailbox/") await page.goto("/dev/mailbox/")
  const link = await page.getAttribute(
    `[data-testid="mail"][data-to="${email}"] [data-testid="mail-link"]`,
    "href",
  )
  expect(link).toBeTruthy()
  return link!
}

/** Open a link from the mailbox and press the confirm page's button. */
async function followAndConfirm(page: Page, link: string, landing: (url: URL) => boolean) {
  await page.goto(link)
  await expect(page.textContent("h1")).resolves.toBe("Sign in")
  await Promise.all([page.waitForURL(landing), page.click('button[type="submit"]')])
}

describe.each([
  { js: true, label: "with JavaScript" },
  { js: false, label: "without JavaScript" },
])("email magic link $label", ({ js }) => {
  it("signs a new address in through the dev mailbox, once per link", async () => {
    const { context, page } = await openPage({ javaScriptEnabled: js })
    const first = `link-${randomUUID()}@example.net`
    await requestLink(page, first)
    if (js) await page.screenshot({ path: `${screenshots}verify-request.png` })
    await Promise.all([
      page.waitForURL((url) => url.pathname === "/dev/mailbox/"),
      page.click('[data-testid="open-mailbox"]'),
    ])
    // Newest first: the mail just sent heads the list.
    await expect(page.getAttribute('[data-testid="mail"]', "data-to")).resolves.toBe(first)
    if (js) await page.screenshot({ path: `${screenshots}dev-mailbox.png`, fullPage: true })
    const link = await newestLink(page, first)
    expect(new URL(link).origin).toBe(baseURL)
    expect(new URL(link).pathname).toBe("/auth/callback/email")
    expect(new URL(link).searchParams.get("email")).toBe(first)

    // A real click on the mailbox's link opens the core's confirm page.
    await Promise.all([
      page.waitForURL((url) => url.pathname === "/auth/callback/email"),
      page.click(`[data-testid="mail"][data-to="${first}"] [data-testid="mail-link"]`),
    ])
    await Promise.all([page.waitForURL(`${baseURL}/`), page.click('button[type="submit"]')])
    await expect(page.textContent('[data-testid="session-email"]')).resolves.toBe(first)
    expect(await sessionCookie(context)).toBeDefined()

    // The token was consumed: the same link ends on the error page.
    await followAndConfirm(page, link, (url) => url.pathname === "/auth/error")
    expect(new URL(page.url()).searchParams.get("error")).toBe("Verification")

    // Another address gets its own link, which signs that address in.
    const second = `link-${randomUUID()}@example.net`
    await requestLink(page, second)
    const other = await newestLink(page, second)
    expect(other).not.toBe(link)
    expect(new URL(other).searchParams.get("token")).not.toBe(
      new URL(link).searchParams.get("token"),
    )
    await followAndConfirm(page, other, (url) => url.href === `${baseURL}/`)
    await expect(page.textContent('[data-testid="session-email"]')).resolves.toBe(second)
    await context.close()
  })
})

describe("the dev mailbox", () => {
  it("is linked from the sign-in page, with the email form", async () => {
    const { context, page } = await openPage()
    await page.goto("/signin/")
    await page.screenshot({ path: `${screenshots}signin-email.png`, fullPage: true })
    await Promise.all([
      page.waitForURL((url) => url.pathname === "/dev/mailbox/"),
      page.click('a[href="/dev/mailbox/"]'),
    ])
    await expect(page.textContent('[data-testid="mailbox-warning"]')).resolves.toContain(
      "only while the demo runs",
    )
    await context.close()
  })
})
