/**
 * The demo's sign-in, sign-out, protected page and session update, through `<Form>` with
 * JavaScript on (Qwik client navigation) and off (plain HTML form posts and 303 redirects).
 */
import { randomUUID } from "node:crypto"
import { describe, expect, inject, it } from "vitest"
import { DEMO, screenshots, sessionCookie, signIn, submitSignIn, useBrowser } from "./browser.js"
import {
  confirmLink,
  devMailbox,
  SUBJECTS,
  signInWithPassword,
  signUp,
  visibleText,
} from "./password-flows.js"

const baseURL = inject("baseURL")
const openPage = useBrowser(baseURL)

describe.each([
  { js: true, label: "with JavaScript" },
  { js: false, label: "without JavaScript" },
])("forms $label", ({ js }) => {
  it("refuses a wrong password and shows why", async () => {
    const { context, page } = await openPage({ javaScriptEnabled: js })
    await signIn(page, { email: DEMO.email, password: "not-the-password" })
    const url = new URL(page.url())
    expect(url.pathname).toBe("/signin/")
    expect(url.searchParams.get("error")).toBe("CredentialsSignin")
    await expect(page.textContent('[data-testid="signin-error"]')).resolves.toContain(
      "Wrong email or password",
    )
    expect(await sessionCookie(context)).toBeUndefined()
    await context.close()
  })

  it("signs in, keeps the session across a reload, and signs out", async () => {
    const { context, page } = await openPage({ javaScriptEnabled: js })
    await page.goto("/signin/")
    if (js) await page.screenshot({ path: `${screenshots}signin.png`, fullPage: true })
    if (js) await page.evaluate(() => Object.assign(window, { __sameDocument: true }))
    await submitSignIn(page)
    expect(new URL(page.url()).pathname).toBe("/")
    await expect(page.textContent('[data-testid="session-email"]')).resolves.toBe(DEMO.email)
    if (js) {
      // Qwik followed the 303 with client navigation: same document, no full page load.
      expect(
        await page.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument),
      ).toBe(true)
      await page.screenshot({ path: `${screenshots}home.png`, fullPage: true })
    }

    await page.reload()
    await expect(page.textContent('[data-testid="session-email"]')).resolves.toBe(DEMO.email)

    await Promise.all([page.waitForURL("**/"), page.click('[data-testid="sign-out"]')])
    await page.waitForSelector('[data-testid="sign-in-link"]')
    await expect(page.textContent('[data-testid="greeting"]')).resolves.toContain("Welcome")
    expect(await sessionCookie(context)).toBeUndefined()
    await page.reload()
    await expect(page.textContent('[data-testid="greeting"]')).resolves.toContain("Welcome")
    await context.close()
  })

  it("sends a signed-out visitor of a protected page to sign in, then back", async () => {
    const { context, page } = await openPage({ javaScriptEnabled: js })
    const response = await page.goto("/protected/")
    expect(response?.ok()).toBe(true)
    const url = new URL(page.url())
    expect(url.pathname).toBe("/signin/")
    expect(url.searchParams.get("callbackUrl")).toBe("/protected/")

    // A failed attempt keeps the destination.
    await submitSignIn(page, { email: DEMO.email, password: "wrong password" })
    await page.waitForSelector('[data-testid="signin-error"]')
    const retry = new URL(page.url())
    expect(retry.searchParams.get("error")).toBe("CredentialsSignin")
    expect(retry.searchParams.get("callbackUrl")).toBe("/protected/")

    await submitSignIn(page, DEMO, "/protected/")
    await expect(page.textContent('[data-testid="protected-title"]')).resolves.toBe("Members only")
    await context.close()
  })

  it("keeps the user on the app when redirectTo names another origin", async () => {
    const { context, page } = await openPage({ javaScriptEnabled: js })
    await signIn(
      page,
      DEMO,
      `/signin/?callbackUrl=${encodeURIComponent("https://evil.example/steal")}`,
    )
    expect(new URL(page.url()).origin).toBe(baseURL)
    await expect(page.textContent('[data-testid="session-email"]')).resolves.toBe(DEMO.email)
    await context.close()
  })

  it("creates an account, confirms its address by mail, and signs the new user in", async () => {
    const { context, page } = await openPage({ javaScriptEnabled: js })
    const user = { email: `user-${randomUUID()}@example.com`, password: "correct horse battery" }
    const first = await signUp(page, { ...user, name: "Ada Lovelace" })
    // Not confirmed yet: the right password gets "confirm your address", not a session.
    await signInWithPassword(page, user)
    await page.waitForSelector('[data-testid="signin-unverified"]')
    expect(await sessionCookie(context)).toBeUndefined()

    const mail = await devMailbox(page).next(user.email, SUBJECTS.verify)
    expect((await confirmLink(page, mail.link!)).pathname).toBe("/signin/")
    await signInWithPassword(page, user)
    await expect(page.textContent('[data-testid="session-email"]')).resolves.toBe(user.email)
    await expect(page.textContent('[data-testid="session-name"]')).resolves.toBe("Ada Lovelace")

    // The same address again, signed out like the first time: the same page as a new sign-up
    // (the owner gets a notice mail).
    const other = await openPage({ javaScriptEnabled: js })
    const second = await signUp(other.page, { ...user, name: "Ada Lovelace" })
    expect(visibleText(second)).toBe(visibleText(first))
    await expect(devMailbox(page).next(user.email, SUBJECTS.accountExists)).resolves.toBeDefined()
    await Promise.all([context.close(), other.context.close()])
  })

  it("updates a custom session field through the update trigger", async () => {
    const { context, page } = await openPage({ javaScriptEnabled: js })
    await signIn(page)
    await page.goto("/account/")
    const nickname = js ? "Captain JS" : "Captain HTML"
    await page.fill('input[name="data.nickname"]', nickname)
    await page.click('[data-testid="save-nickname"]')
    await page.waitForSelector('[data-testid="saved"]')
    await expect(page.textContent('[data-testid="current-nickname"]')).resolves.toBe(nickname)
    // The re-issued cookie carries the new value: a fresh page load still shows it.
    await page.goto("/")
    await expect(page.textContent('[data-testid="session-nickname"]')).resolves.toBe(nickname)
    await context.close()
  })
})

describe("the signed-in header", () => {
  it("fits a 390 px wide phone screen, sign-out button included", async () => {
    const { context, page } = await openPage({ viewport: { width: 390, height: 844 } })
    await signIn(page)
    await page.waitForSelector('[data-testid="sign-out"]')
    const header = await page.evaluate(() => {
      const bar = document.querySelector("header")!
      const button = document.querySelector('[data-testid="sign-out"]')!.getBoundingClientRect()
      return {
        scroll: document.documentElement.scrollWidth,
        bar: bar.scrollWidth,
        right: button.right,
      }
    })
    expect(header.scroll).toBeLessThanOrEqual(390)
    expect(header.bar).toBeLessThanOrEqual(390)
    expect(header.right).toBeLessThanOrEqual(390)
    await page.screenshot({ path: `${screenshots}header-390.png` })
    await context.close()
  })
})

describe("the local OpenID Provider", () => {
  it.each([
    { js: true, label: "with JavaScript" },
    { js: false, label: "without JavaScript" },
  ])(
    "signs in through a real OIDC round trip $label, and back to the same account",
    async ({ js }) => {
      const { context, page } = await openPage({ javaScriptEnabled: js })
      const email = `oidc-${randomUUID()}@example.org`
      const roundTrip = async () => {
        await page.goto("/signin/?callbackUrl=%2Fprotected%2F")
        await Promise.all([
          page.waitForURL((url) => url.origin !== baseURL),
          page.click('[data-testid="oauth-local-oidc"] button'),
        ])
        expect(new URL(page.url()).hostname).toBe("127.0.0.1")
        if (js) await page.screenshot({ path: `${screenshots}oidc-provider.png` })
        await page.fill('input[name="name"]', "Grace Hopper")
        await page.fill('input[name="email"]', email)
        await Promise.all([
          page.waitForURL(`${baseURL}/protected/`),
          page.click('button[value="login"]'),
        ])
      }
      await roundTrip()
      await expect(page.textContent('[data-testid="protected-title"]')).resolves.toBe(
        "Members only",
      )
      await page.goto("/")
      await expect(page.textContent('[data-testid="session-email"]')).resolves.toBe(email)
      await expect(page.textContent('[data-testid="session-name"]')).resolves.toBe("Grace Hopper")
      const firstId = await fetch(`${baseURL}/auth/session`, {
        headers: {
          cookie: (await context.cookies()).map((c) => `${c.name}=${c.value}`).join("; "),
        },
      }).then((r) => r.json() as Promise<{ user?: { id?: string } }>)

      // Signing out and in again through the provider finds the same user.
      await Promise.all([page.waitForURL(`${baseURL}/`), page.click('[data-testid="sign-out"]')])
      await page.waitForSelector('[data-testid="sign-in-link"]')
      await context.clearCookies()
      await roundTrip()
      const second = await fetch(`${baseURL}/auth/session`, {
        headers: {
          cookie: (await context.cookies()).map((c) => `${c.name}=${c.value}`).join("; "),
        },
      }).then((r) => r.json() as Promise<{ user?: { id?: string } }>)
      expect(second.user?.id).toBeTruthy()
      expect(second.user?.id).toBe(firstId.user?.id)
      await context.close()
    },
  )

  it("shows the provider's userinfo through a refreshed access token", async () => {
    const { context, page } = await openPage()
    const email = `refresh-${randomUUID()}@example.org`
    await page.goto("/provider/")
    await expect(page.textContent('[data-testid="provider-none"]')).resolves.toContain("Sign in")
    await page.goto("/signin/?callbackUrl=%2Fprovider%2F")
    await Promise.all([
      page.waitForURL((url) => url.origin !== baseURL),
      page.click('[data-testid="oauth-local-oidc"] button'),
    ])
    await page.fill('input[name="name"]', "Ada Refresh")
    await page.fill('input[name="email"]', email)
    await Promise.all([
      page.waitForURL(`${baseURL}/provider/`),
      page.click('button[value="login"]'),
    ])
    await expect(page.textContent('[data-testid="provider-email"]')).resolves.toBe(email)
    await expect(page.textContent('[data-testid="provider-name"]')).resolves.toBe("Ada Refresh")
    // The demo's provider issues 10 s access tokens: every one issued so far has expired, so
    // this page can only show the userinfo through a token refreshed for this visit.
    await new Promise((resolve) => setTimeout(resolve, 11_000))
    await page.reload()
    await expect(page.textContent('[data-testid="provider-email"]')).resolves.toBe(email)
    const html = await page.content()
    expect(html).not.toMatch(/access_token|refresh_token/)
    await context.close()
  })

  it("refuses to link an OIDC identity to an existing password account", async () => {
    const { context, page } = await openPage()
    await page.goto("/signin/")
    await Promise.all([
      page.waitForURL((url) => url.origin !== baseURL),
      page.click('[data-testid="oauth-local-oidc"] button'),
    ])
    await page.fill('input[name="name"]', "Mallory")
    await page.fill('input[name="email"]', DEMO.email)
    await Promise.all([
      page.waitForURL((url) => url.origin === baseURL),
      page.click('button[value="login"]'),
    ])
    const url = new URL(page.url())
    expect(url.pathname).toBe("/signin/")
    expect(url.searchParams.get("error")).toBe("OAuthAccountNotLinked")
    expect(await sessionCookie(context)).toBeUndefined()
    await context.close()
  })
})

describe("session cookie", () => {
  it("is HttpOnly, SameSite=Lax and Path=/", async () => {
    const { context, page } = await openPage()
    await signIn(page)
    const cookie = await sessionCookie(context)
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Lax", path: "/" })
    // Plain http on loopback: no Secure flag and no __Secure- prefix.
    expect(cookie?.secure).toBe(false)
    await context.close()
  })

  it("when tampered with, gives a signed-out page rather than an error", async () => {
    const { context, page } = await openPage()
    await signIn(page)
    const cookie = await sessionCookie(context)
    expect(cookie).toBeDefined()
    const value = cookie?.value ?? ""
    const flipped = `${value.slice(0, -6)}${value.slice(-6) === "AAAAAA" ? "BBBBBB" : "AAAAAA"}`
    await context.addCookies([{ ...cookie!, value: flipped }])
    const response = await page.goto("/")
    expect(response?.status()).toBe(200)
    await expect(page.textContent('[data-testid="greeting"]')).resolves.toContain("Welcome")
    await context.addCookies([{ ...cookie!, value: "not-a-token" }])
    expect((await page.goto("/"))?.status()).toBe(200)
    await expect(page.textContent('[data-testid="greeting"]')).resolves.toContain("Welcome")
    await context.close()
  })
})
