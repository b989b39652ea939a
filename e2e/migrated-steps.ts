/**
 * Steps shared by the tests of the migrated apps (pages of `fixtures/migrated`): the home page's
 * credentials form, and the sign-in page of the local OpenID Provider.
 */
import type { Page } from "playwright-core"
import { expect } from "vitest"

/** The one user the migrated apps' `authorize()` accepts. */
export const GRACE = { email: "grace@example.com", password: "hopper-1906" }

/** Submit the credentials form of the current page as Grace; resolves once the URL is `expected`. */
export async function submitCredentials(
  page: Page,
  password: string,
  expected: string | ((url: URL) => boolean),
): Promise<void> {
  await page.fill('input[name="options.email"]', GRACE.email)
  await page.fill('input[name="options.password"]', password)
  await Promise.all([page.waitForURL(expected), page.click('[data-testid="form-credentials"]')])
}

/** The OpenID Provider's own sign-in page: any name and email; back on the protected page. */
export async function loginAtProvider(page: Page, issuer: string, base: string, email: string) {
  expect(new URL(page.url()).origin).toBe(issuer)
  await page.fill('input[name="name"]', "Grace Hopper")
  await page.fill('input[name="email"]', email)
  await Promise.all([page.waitForURL(`${base}/protected/`), page.click('button[value="login"]')])
}
