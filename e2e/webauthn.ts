/** WebAuthn in Chromium for browser tests: a virtual authenticator over the DevTools protocol. */
import type { Page } from "playwright-core"

/**
 * A CTAP2 platform authenticator with resident keys and user verification that answers every
 * request at once (as a user touching it would).
 */
export async function addVirtualAuthenticator(page: Page) {
  const cdp = await page.context().newCDPSession(page)
  await cdp.send("WebAuthn.enable")
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  })
  return { cdp, authenticatorId }
}

/**
 * A click event on `selector`. Not `page.click()`: while the page's WebAuthn request is pending,
 * Playwright's post-click waiting never returns.
 */
export async function press(page: Page, selector: string) {
  await page.locator(selector).dispatchEvent("click")
}
