/**
 * Passkeys in the demo app through `@latchkey/qwik`'s client helpers, in Chromium with a
 * virtual authenticator: register a passkey on the account page, sign out, sign in with it.
 * The demo stores everything in PGlite.
 */
import { describe, expect, inject, it } from "vitest"
import { DEMO, signIn, useBrowser } from "./browser.js"
import { addVirtualAuthenticator, press } from "./webauthn.js"

// `localhost`, not the IP the server reports: an IP address cannot be a WebAuthn relying-party
// id, and http://localhost is a secure context.
const baseURL = inject("baseURL").replace("//127.0.0.1:", "//localhost:")
const openPage = useBrowser(baseURL)

describe("demo: passkeys", () => {
  it("registers a passkey on the account page, signs out, signs in with it", async () => {
    const { context, page } = await openPage()
    const { cdp, authenticatorId } = await addVirtualAuthenticator(page)
    await signIn(page)
    await page.goto("/account/")
    await press(page, '[data-testid="register-passkey"]')
    await page.waitForURL((url) => url.pathname === "/account/" && url.search === "?passkey=added")
    await page.locator('[data-testid="passkey-added"]').waitFor()
    const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId })
    expect(credentials).toHaveLength(1)

    await Promise.all([
      page.waitForURL((url) => url.pathname === "/"),
      page.click('[data-testid="sign-out"]'),
    ])
    const signedOut = await page.request.get("/auth/session")
    expect(await signedOut.json()).toBeNull()

    await page.goto("/signin/?callbackUrl=%2Fprotected%2F")
    await press(page, '[data-testid="passkey-signin"]')
    await page.waitForURL((url) => url.pathname === "/protected/")
    const session = await page.request.get("/auth/session")
    expect(await session.json()).toMatchObject({ user: { email: DEMO.email } })
    await context.close()
  })

  it("a passkey the authenticator does not have: the message is shown, nobody is signed in", async () => {
    const { context, page } = await openPage()
    // An authenticator without any credential for this site: the browser refuses the request.
    await addVirtualAuthenticator(page)
    await page.goto("/signin/")
    await press(page, '[data-testid="passkey-signin"]')
    await expect
      .poll(() => page.locator('[data-testid="passkey-error"]').textContent())
      .toMatch(/cancelled or timed out/)
    const session = await page.request.get("/auth/session")
    expect(await session.json()).toBeNull()
    await context.close()
  })
})
