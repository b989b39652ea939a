/**
 * A stale or replayed OAuth callback, in Chromium against the demo and its real OpenID Provider
 * (oidc-provider on loopback): the user ends on the sign-in page with a message to start again,
 * and no response on the way is a 5xx.
 */
import { randomUUID } from "node:crypto"
import type { Page } from "playwright-core"
import { describe, expect, inject, it } from "vitest"
import { useBrowser } from "./browser.js"

const baseURL = inject("baseURL")
const openPage = useBrowser(baseURL)

/** Every response status the page sees, main frame and subresources, for "no 5xx". */
function recordStatuses(page: Page): { url: string; status: number }[] {
  const seen: { url: string; status: number }[] = []
  page.on("response", (response) => seen.push({ url: response.url(), status: response.status() }))
  return seen
}

/** From the demo's sign-in page to the provider's login form. */
async function toProvider(page: Page): Promise<void> {
  await page.goto("/signin/?callbackUrl=%2Fprotected%2F")
  await Promise.all([
    page.waitForURL((url) => url.origin !== baseURL),
    page.click('[data-testid="oauth-local-oidc"] button'),
  ])
}

/** Fill the provider's login form and submit; resolves once the browser is back in the app. */
async function loginAtProvider(page: Page, until: (url: URL) => boolean): Promise<void> {
  await page.fill('input[name="name"]', "Stale Tab")
  await page.fill('input[name="email"]', `stale-${randomUUID()}@example.org`)
  await Promise.all([page.waitForURL(until), page.click('button[value="login"]')])
}

const backOnSignIn = (url: URL) => url.origin === baseURL && url.pathname === "/signin/"

async function expectStaleAttemptMessage(page: Page): Promise<void> {
  const url = new URL(page.url())
  expect(url.pathname).toBe("/signin/")
  expect(url.searchParams.get("error")).toBe("InvalidCheck")
  await expect(page.textContent('[data-testid="signin-error"]')).resolves.toContain(
    "expired or was already used",
  )
}

describe("a stale OAuth attempt", () => {
  it.each([
    { js: true, label: "with JavaScript" },
    { js: false, label: "without JavaScript" },
  ])(
    "cookies cleared while on the provider's page $label: back on the sign-in page with the message, no 5xx",
    async ({ js }) => {
      const { context, page } = await openPage({ javaScriptEnabled: js })
      const statuses = recordStatuses(page)
      await toProvider(page)
      // The app's cookies (state, PKCE verifier, nonce) go, as after a long wait or in another
      // browser; the provider's own cookies (same host, other port) stay so its form still works.
      await context.clearCookies({ name: /^authjs\./ })
      expect((await context.cookies()).some((c) => c.name.startsWith("authjs."))).toBe(false)
      await loginAtProvider(page, backOnSignIn)
      await expectStaleAttemptMessage(page)
      expect(statuses.filter((s) => s.status >= 500)).toEqual([])
      expect(statuses.some((s) => s.url.includes("/auth/callback/local-oidc"))).toBe(true)
      await context.close()
    },
  )

  it("the replayed callback (its URL opened again) lands on the same page, no 5xx", async () => {
    const { context, page } = await openPage()
    const statuses = recordStatuses(page)
    let callbackUrl: string | undefined
    page.on("request", (request) => {
      if (request.url().includes("/auth/callback/local-oidc")) callbackUrl ??= request.url()
    })
    await toProvider(page)
    await loginAtProvider(page, (url) => url.origin === baseURL && url.pathname === "/protected/")
    expect(callbackUrl).toBeDefined()
    // Back to the callback with its code and state again: the state was used.
    await page.goto(callbackUrl!)
    await page.waitForURL(backOnSignIn)
    await expectStaleAttemptMessage(page)
    expect(statuses.filter((s) => s.status >= 500)).toEqual([])
    await context.close()
  })
})
