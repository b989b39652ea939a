/**
 * Chromium from Debian (`apt-get install chromium`), driven by playwright-core. Nothing is ever
 * downloaded, and background networking is off so the browser talks to loopback only.
 */
import { existsSync, mkdirSync } from "node:fs"
import { fileURLToPath } from "node:url"
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core"
import { afterAll, afterEach, beforeAll, expect } from "vitest"

/** Where suites write screenshots (git-ignored); look at them after a run. */
export const screenshots = fileURLToPath(new URL("./screenshots/", import.meta.url))

const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium"

export async function launch(): Promise<Browser> {
  if (!existsSync(executablePath)) {
    throw new Error(`Chromium not found at ${executablePath}: apt-get install -y chromium`)
  }
  return chromium.launch({
    executablePath,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  })
}

/**
 * Uncaught page errors and console errors of every page opened with {@link open}. A broken
 * client chunk fails silently in the UI (the form just does nothing), so tests assert this stays
 * empty.
 */
export const pageErrors: string[] = []

export interface Session {
  context: BrowserContext
  page: Page
}

export async function open(
  browser: Browser,
  baseURL: string,
  options: { javaScriptEnabled?: boolean; viewport?: { width: number; height: number } } = {},
): Promise<Session> {
  const context = await browser.newContext({
    baseURL,
    javaScriptEnabled: options.javaScriptEnabled ?? true,
    viewport: options.viewport ?? { width: 1100, height: 760 },
  })
  const page = await context.newPage()
  page.on("pageerror", (error) => pageErrors.push(`pageerror: ${error.message}`))
  page.on("console", (message) => {
    // A 4xx answer the app meant (409 on a taken email) is logged by Chromium; it is no bug.
    const expected = /^Failed to load resource: the server responded with a status of 4\d\d/
    if (message.type() === "error" && !expected.test(message.text())) {
      pageErrors.push(`console: ${message.text()}`)
    }
  })
  return { context, page }
}

/**
 * Click `selector` and wait until the page it leads to has loaded. Without JavaScript a form
 * navigates: the click returns once the answer starts, while Qwik is still streaming it, and
 * only then is "load" the new page's (a `waitForLoadState()` begun before the click is the old
 * page's, already loaded). With JavaScript the action updates the page in place, and this is
 * the click alone.
 */
export async function clickAndLoad(page: Page, selector: string): Promise<void> {
  await page.click(selector)
  await page.waitForLoadState()
}

export const DEMO = { email: "demo@example.com", password: "latchkey-demo" } as const

/**
 * Fill the sign-in form of the current page, submit it, and wait until the browser leaves it
 * (or, with `expectPath`, until it reaches that path).
 */
export async function submitSignIn(
  page: Page,
  credentials: { email: string; password: string } = DEMO,
  expectPath?: string,
): Promise<void> {
  const before = page.url()
  await page.fill('input[name="options.email"]', credentials.email)
  await page.fill('input[name="options.password"]', credentials.password)
  await Promise.all([
    page.waitForURL((url) =>
      expectPath
        ? url.pathname === expectPath
        : url.href !== before &&
          (!url.pathname.startsWith("/signin") || url.searchParams.has("error")),
    ),
    page.click('[data-testid="sign-in-submit"]'),
  ])
}

/** Open the sign-in page (`from`, default `/signin/`) and sign in. */
export async function signIn(
  page: Page,
  credentials: { email: string; password: string } = DEMO,
  from = "/signin/",
): Promise<void> {
  await page.goto(from)
  await submitSignIn(page, credentials)
}

export async function sessionCookie(context: BrowserContext) {
  const cookies = await context.cookies()
  return cookies.find(
    (c) => c.name === "authjs.session-token" || c.name.startsWith("authjs.session-token."),
  )
}

/**
 * One browser for a suite file: launched before its tests, closed after, and every test must
 * leave no page error or unexpected console error behind. Returns a page opener for `baseURL`.
 */
export function useBrowser(
  baseURL: string,
): (options?: Parameters<typeof open>[2]) => Promise<Session> {
  let browser: Browser | undefined
  beforeAll(async () => {
    mkdirSync(screenshots, { recursive: true })
    browser = await launch()
  })
  afterAll(async () => {
    await browser?.close()
  })
  afterEach(() => {
    expect(pageErrors.splice(0)).toEqual([])
  })
  return (options) => open(browser!, baseURL, options)
}
