/**
 * The demo's account page (`/account/`) in Chromium, through `@latchkey/qwik`'s `useAccount`
 * loader and account actions: passkeys (registered with the CDP virtual authenticator, renamed,
 * listed, deleted), devices (two browsers as one user, "this device" marked, ending the other
 * one and every other one), linked sign-in methods (the last one cannot be unlinked), the "sign
 * in again" prompt for a sign-in that is no longer recent, and no token or secret in the page or
 * its scripts. With JavaScript on and off (adding a passkey needs it), for database sessions (the
 * default demo) and JWT sessions (a second demo with `LATCHKEY_DEMO_SESSIONS=jwt`, and no email
 * sign-in, so an OpenID account can be the only way in). Two more demos with a short recent
 * sign-in window (`LATCHKEY_DEMO_RECENT_AUTH_MAX_AGE`, database and JWT sessions) have the stale
 * case.
 */
import { randomUUID } from "node:crypto"
import { readdirSync, readFileSync } from "node:fs"
import { fileURLToPath } from "node:url"
import type { Browser, BrowserContext, Page } from "playwright-core"
import { afterAll, afterEach, beforeAll, describe, expect, inject, it } from "vitest"
import { clickAndLoad, launch, open, pageErrors, sessionCookie, submitSignIn } from "./browser.js"
import { type DemoServer, startDemo } from "./demo-server.js"
import { newDemoUser } from "./password-flows.js"
import { addVirtualAuthenticator, press } from "./webauthn.js"

/** A short window, so the stale case waits seconds; long enough for a sign-in and one action. */
const STALE_AFTER = 8

/**
 * `localhost`, not the IP the server reports: an IP address cannot be a WebAuthn relying-party
 * id, and http://localhost is a secure context.
 */
const onLocalhost = (url: string) => url.replace("//127.0.0.1:", "//localhost:")

let browser: Browser
let jwtDemo: DemoServer
let staleDemo: DemoServer
let staleJwtDemo: DemoServer

beforeAll(async () => {
  browser = await launch()
  const stale = { LATCHKEY_DEMO_RECENT_AUTH_MAX_AGE: String(STALE_AFTER) }
  ;[jwtDemo, staleDemo, staleJwtDemo] = await Promise.all([
    startDemo({ LATCHKEY_DEMO_SESSIONS: "jwt", LATCHKEY_DEMO_MAILBOX: "off" }),
    startDemo(stale),
    startDemo({ ...stale, LATCHKEY_DEMO_SESSIONS: "jwt" }),
  ])
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await Promise.all([jwtDemo?.stop(), staleDemo?.stop(), staleJwtDemo?.stop()])
})

afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([])
})

const demos = () => [
  { sessions: "database", base: onLocalhost(inject("baseURL")), secret: inject("demoSecret") },
  { sessions: "jwt", base: onLocalhost(jwtDemo.url), secret: jwtDemo.secret },
]

/**
 * Create a password account at `/signup/`, confirm its address (dev mailbox) and sign in with
 * it, landing on `/account/`.
 */
async function newUser(page: Page): Promise<{ email: string; password: string }> {
  const user = { email: `acct-${randomUUID()}@example.com`, password: "correct horse battery" }
  await newDemoUser(page, { ...user, name: "Ada Account" })
  return user
}

/** Sign in on `/signin/` with `callbackUrl=/account/`. */
async function signInTo(page: Page, user: { email: string; password: string }): Promise<void> {
  await page.goto("/signin/?callbackUrl=%2Faccount%2F")
  await submitSignIn(page, user, "/account/")
  await page.waitForSelector('[data-testid="account-email"]')
}

/** A browser context on `base` holding the cookies of `from`: the same session, another setting. */
async function sameSession(from: BrowserContext, base: string, javaScriptEnabled: boolean) {
  const opened = await open(browser, base, { javaScriptEnabled })
  await opened.context.addCookies(await from.cookies())
  return opened
}

/**
 * Submit one of the page's account forms and wait for its result (`<testId>-done|-error`) on the
 * whole page: without JavaScript the answer is a new page, and a count read before the rest of
 * it has streamed in would find nothing, whatever the change did.
 */
async function submit(page: Page, button: string, result: string): Promise<void> {
  await clickAndLoad(page, button)
  await page.waitForSelector(result)
}

/** This browser's session id, as the account page marks it. */
async function currentSessionId(page: Page): Promise<string> {
  await page.goto("/account/")
  const id = await page.getAttribute('[data-testid="device-current"]', "data-session-id")
  expect(id).toBeTruthy()
  return id!
}

async function passkeyNames(page: Page): Promise<string[]> {
  return page.locator('[data-testid="passkey-name"]').allTextContents()
}

for (const js of [true, false]) {
  const mode = js ? "with JavaScript" : "without JavaScript"

  describe.each(["database", "jwt"])(`account page, %s sessions, ${mode}`, (sessions) => {
    const demo = () => demos().find((d) => d.sessions === sessions)!

    it("passkeys: one added with the authenticator is listed, renamed, deleted", async () => {
      // Adding runs the WebAuthn ceremony, which needs JavaScript; the rest runs in `mode`.
      const registering = await open(browser, demo().base)
      const { cdp, authenticatorId } = await addVirtualAuthenticator(registering.page)
      await newUser(registering.page)
      expect(await registering.page.textContent('[data-testid="no-passkeys"]')).toContain(
        "No passkeys",
      )
      await press(registering.page, '[data-testid="register-passkey"]')
      await registering.page.waitForURL((url) => url.search === "?passkey=added")
      const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId })
      expect(credentials).toHaveLength(1)

      const { context, page } = await sameSession(registering.context, demo().base, js)
      await page.goto("/account/")
      expect(await page.locator('[data-testid="passkey"]').count()).toBe(1)
      const newName = `Work laptop <b>${js ? "js" : "html"}</b>`
      await page.fill('[data-testid="passkey-rename-input"]', newName)
      await submit(page, '[data-testid="passkey-rename"]', '[data-testid="passkey-rename-done"]')
      // Shown as text, never as markup. With JavaScript the list re-renders a tick after the
      // action's result does: poll rather than read once.
      await expect.poll(() => passkeyNames(page)).toEqual([newName])
      expect(await page.locator('[data-testid="passkey-name"] b').count()).toBe(0)
      await page.goto("/account/")
      expect(await passkeyNames(page)).toEqual([newName])

      await submit(page, '[data-testid="passkey-delete"]', '[data-testid="passkey-delete-done"]')
      await page.waitForSelector('[data-testid="no-passkeys"]')
      await page.goto("/account/")
      expect(await page.locator('[data-testid="passkey"]').count()).toBe(0)
      await context.close()
      await registering.context.close()
    })

    it("an empty name is refused by the form validation, nothing renamed", async () => {
      const registering = await open(browser, demo().base)
      await addVirtualAuthenticator(registering.page)
      await newUser(registering.page)
      await press(registering.page, '[data-testid="register-passkey"]')
      await registering.page.waitForURL((url) => url.search === "?passkey=added")
      const before = await passkeyNames(registering.page)

      const { context, page } = await sameSession(registering.context, demo().base, js)
      await page.goto("/account/")
      // Spaces pass the browser's `required` check; the action's zod schema trims and refuses.
      await page.fill('[data-testid="passkey-rename-input"]', "   ")
      await submit(page, '[data-testid="passkey-rename"]', '[data-testid="passkey-rename-error"]')
      expect(await page.textContent('[data-testid="passkey-rename-error"]')).toContain(
        "Enter a name",
      )
      await page.goto("/account/")
      expect(await passkeyNames(page)).toEqual(before)
      await context.close()
      await registering.context.close()
    })

    it("devices: two browsers as one user, this one marked; ending the other signs it out", async () => {
      const a = await open(browser, demo().base, { javaScriptEnabled: js })
      const b = await open(browser, demo().base, { javaScriptEnabled: js })
      const c = await open(browser, demo().base, { javaScriptEnabled: js })
      const user = await newUser(a.page)
      await signInTo(b.page, user)
      const bId = await currentSessionId(b.page)
      const aId = await currentSessionId(a.page)
      expect(aId).not.toBe(bId)

      // A sees both, itself marked "This device" and without an "end" button.
      const current = a.page.locator('[data-testid="device-current"]')
      expect(await current.count()).toBe(1)
      expect(await current.locator('[data-testid="this-device"]').textContent()).toBe("This device")
      expect(await current.locator('[data-testid="device-revoke"]').count()).toBe(0)
      const other = a.page.locator(`[data-session-id="${bId}"]`)
      expect(await other.count()).toBe(1)

      await submit(
        a.page,
        `[data-session-id="${bId}"] [data-testid="device-revoke"]`,
        '[data-testid="device-revoke-done"]',
      )
      expect(await a.page.locator(`[data-session-id="${bId}"]`).count()).toBe(0)
      // B's next page load is signed out: the account page sends it to sign in.
      await b.page.goto("/account/")
      expect(new URL(b.page.url()).pathname).toBe("/signin/")
      expect(await (await b.page.request.get("/auth/session")).json()).toBeNull()

      // "Sign out all other devices" ends C, keeps A.
      await signInTo(c.page, user)
      await a.page.goto("/account/")
      await submit(
        a.page,
        '[data-testid="devices-revoke-others"]',
        '[data-testid="devices-revoke-others-done"]',
      )
      expect(await a.page.locator('[data-testid="device"]').count()).toBe(0)
      await c.page.goto("/account/")
      expect(new URL(c.page.url()).pathname).toBe("/signin/")
      await a.page.goto("/account/")
      expect(await a.page.textContent('[data-testid="account-email"]')).toBe(user.email)
      await Promise.all([a.context.close(), b.context.close(), c.context.close()])
    })

    it("the page and its scripts carry no session token, CSRF token or secret", async () => {
      const { context, page } = await open(browser, demo().base, { javaScriptEnabled: js })
      const scripts: Promise<string>[] = []
      page.on("response", (response) => {
        if (response.request().resourceType() === "script") {
          scripts.push(response.text().catch(() => ""))
        }
      })
      await newUser(page)
      await page.goto("/account/")
      const html = await (await page.request.get("/account/")).text()
      const token = (await sessionCookie(context))?.value
      expect(token).toBeTruthy()
      const csrf = (await context.cookies()).find((c) => c.name.includes("csrf-token"))?.value
      const forbidden = [token!, demo().secret, ...(csrf ? csrf.split(/%7C|\|/) : [])]
      for (const text of [html, await page.content(), ...(await Promise.all(scripts))]) {
        for (const secret of forbidden) expect(text.includes(secret)).toBe(false)
        expect(text).not.toMatch(/access_token|refresh_token|id_token|sessionToken/)
      }
      await context.close()
    })
  })
}

describe("linked sign-in methods", () => {
  /** Sign up through the demo's local OpenID Provider, landing on `/account/`. */
  async function signInWithOidc(page: Page, base: string): Promise<void> {
    await page.goto("/signin/?callbackUrl=%2Faccount%2F")
    await Promise.all([
      page.waitForURL((url) => url.origin !== base),
      page.click('[data-testid="oauth-local-oidc"] button'),
    ])
    await page.fill('input[name="name"]', "Lin Ked")
    await page.fill('input[name="email"]', `oidc-${randomUUID()}@example.org`)
    await Promise.all([
      page.waitForURL((url) => url.origin === base && url.pathname === "/account/"),
      page.click('button[value="login"]'),
    ])
  }

  // The JWT demo runs without email sign-in, so the OpenID account is the only way in.
  for (const js of [true, false]) {
    it(`the only sign-in method cannot be unlinked ${js ? "with" : "without"} JavaScript; once a passkey is added it can (JWT sessions)`, async () => {
      const base = onLocalhost(jwtDemo.url)
      const signedIn = await open(browser, base)
      const { cdp, authenticatorId } = await addVirtualAuthenticator(signedIn.page)
      await signInWithOidc(signedIn.page, base)
      const { context, page } = await sameSession(signedIn.context, base, js)
      await page.goto("/account/")
      expect(await page.locator('[data-testid="linked-account"]').count()).toBe(1)
      // This demo has no email sign-in: no email link is listed.
      expect(await page.locator('[data-testid="email-link-method"]').count()).toBe(0)
      await submit(page, '[data-testid="unlink"]', '[data-testid="unlink-error"]')
      expect(await page.getAttribute('[data-testid="account-error-type"]', "data-type")).toBe(
        "LastSignInMethod",
      )
      expect(await page.textContent('[data-testid="unlink-error"]')).toContain(
        "last way to sign in",
      )
      await page.goto("/account/")
      expect(await page.locator('[data-testid="linked-account"]').count()).toBe(1)

      await press(signedIn.page, '[data-testid="register-passkey"]')
      await signedIn.page.waitForURL((url) => url.search === "?passkey=added")
      const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId })
      expect(credentials).toHaveLength(1)
      // Adding a passkey changes no session (no fresh sign-in): the same session, in the
      // other context, goes on and may now unlink.
      await page.goto("/account/")
      await submit(page, '[data-testid="unlink"]', '[data-testid="unlink-done"]')
      await page.waitForSelector('[data-testid="no-linked-accounts"]')
      await Promise.all([context.close(), signedIn.context.close()])
    })
  }

  it("with email links on and the address verified by the provider, unlinking works (database sessions)", async () => {
    const base = onLocalhost(inject("baseURL"))
    const { context, page } = await open(browser, base)
    await signInWithOidc(page, base)
    expect(await page.locator('[data-testid="linked-account"]').count()).toBe(1)
    // The provider proved the address, and email links are on: the link is a way in, listed.
    const emailLink = page.locator('[data-testid="email-link-method"]')
    expect(await emailLink.textContent()).toMatch(/Email link.*to oidc-.*@example\.org/)
    expect(await page.textContent('[data-testid="email-link-why"]')).toContain(
      "change your email address",
    )
    // The account row holds the provider's tokens; the page shows provider and id only.
    const html = await (await page.request.get("/account/")).text()
    expect(html).not.toMatch(/access_token|refresh_token|id_token|expires_at/)
    await submit(page, '[data-testid="unlink"]', '[data-testid="unlink-done"]')
    await page.waitForSelector('[data-testid="no-linked-accounts"]')
    // No provider left, no password, no passkey: the page still shows the way in.
    await page.goto("/account/")
    expect(await page.locator('[data-testid="email-link-method"]').count()).toBe(1)
    await context.close()
  })
})

/**
 * Sign in on the sign-in page `page` shows, then make the change `button` submits: it must go
 * through, and the account page must not ask to sign in again. Both hold only while the sign-in
 * is recent, for STALE_AFTER seconds by the server's clock, which starts no earlier than this
 * function does. On a loaded machine the sign-in, the page and the change can outlast that
 * window: a change refused after it proves nothing, so the user signs in again (at most three
 * times). A change refused inside it, or a prompt shown inside it, fails the test.
 */
async function changeWhileRecent(
  page: Page,
  user: { email: string; password: string },
  button: string,
  testId: string,
): Promise<void> {
  for (let attempt = 1; ; attempt++) {
    const from = Date.now()
    await submitSignIn(page, user, "/account/")
    const prompted = await page.locator('[data-testid="reauth-hint"]').count()
    await clickAndLoad(page, button)
    await page.waitForSelector(`[data-testid="${testId}-done"], [data-testid="${testId}-error"]`)
    const done = (await page.locator(`[data-testid="${testId}-done"]`).count()) === 1
    const inWindow = Date.now() - from < STALE_AFTER * 1000
    if (inWindow || done) {
      if (inWindow) expect(prompted).toBe(0)
      expect(done).toBe(true)
      return
    }
    if (attempt === 3)
      throw new Error(`three sign-ins in a row outlasted the ${STALE_AFTER} s window`)
    await page.goto("/signin/?callbackUrl=%2Faccount%2F&reauth=1")
  }
}

describe.each(["database", "jwt"])(
  `a sign-in older than the recent window (${STALE_AFTER} s, %s sessions)`,
  (sessions) => {
    for (const js of [true, false]) {
      it(`asks to sign in again, then the change goes through (${js ? "with" : "without"} JavaScript)`, async () => {
        const base = onLocalhost((sessions === "jwt" ? staleJwtDemo : staleDemo).url)
        const a = await open(browser, base, { javaScriptEnabled: js })
        const b = await open(browser, base, { javaScriptEnabled: js })
        const user = await newUser(a.page)
        await signInTo(b.page, user)
        const bId = await currentSessionId(b.page)

        // Wait for the page to say the sign-in is no longer recent (the core's clock decides).
        await expect
          .poll(
            async () => {
              await a.page.goto("/account/")
              return a.page.locator('[data-testid="reauth-hint"]').count()
            },
            { timeout: (STALE_AFTER + 10) * 1000, interval: 1000 },
          )
          .toBe(1)
        const revoke = `[data-session-id="${bId}"] [data-testid="device-revoke"]`
        await submit(a.page, revoke, '[data-testid="device-revoke-error"]')
        expect(await a.page.getAttribute('[data-testid="account-error-type"]', "data-type")).toBe(
          "ReauthenticationRequired",
        )
        expect(await a.page.textContent('[data-testid="device-revoke-error"]')).toContain(
          "sign in again",
        )
        // Nothing changed: B is still signed in.
        expect(await (await b.page.request.get("/auth/session")).json()).not.toBeNull()

        // The prompt's link: the sign-in page says why, and brings the user back.
        await Promise.all([
          a.page.waitForURL(/\/signin\//),
          a.page.click('[data-testid="reauth-link"]'),
        ])
        const signInUrl = new URL(a.page.url())
        expect(signInUrl.searchParams.get("reauth")).toBe("1")
        expect(signInUrl.searchParams.get("callbackUrl")).toBe("/account/")
        await a.page.waitForSelector('[data-testid="reauth-notice"]')
        await changeWhileRecent(a.page, user, revoke, "device-revoke")
        await b.page.goto("/account/")
        expect(new URL(b.page.url()).pathname).toBe("/signin/")
        await Promise.all([a.context.close(), b.context.close()])
      })
    }
  },
)

describe("the client build", () => {
  it("holds none of the account API's server code", () => {
    const dir = fileURLToPath(new URL("../examples/qwik-app/dist/build/", import.meta.url))
    const leaking = readdirSync(dir).filter((file) =>
      /sessions-revoke-others|account-unlink|getSessionAndUser|recentAuthVerdict|AUTH_SECRET/.test(
        readFileSync(`${dir}${file}`, "latin1"),
      ),
    )
    expect(leaking).toEqual([])
  })
})
