/**
 * The browser flows of the apps users set up from the README, shared by the quick start's Qwik 1
 * and Qwik 2 suites and `npx latchkey init`'s: the same password account, the same built-in
 * pages, the same expectations, whichever Qwik and whichever way the app was made.
 */
import { randomUUID } from "node:crypto"
import type { Browser, Page } from "playwright-core"
import { expect } from "vitest"
import type { SmtpInbox } from "../packages/core/test/authjs-adapters/smtp-inbox.js"
import { clickAndLoad, open, sessionCookie } from "./browser.js"
import {
  addNodeServer,
  buildProduction,
  clientFilesMatching,
  type FixtureApp,
  newSecret,
  type RunningApp,
  reservePort,
  serverFilesMatching,
  startDev,
  startNodeServer,
  startProduction,
  writeDotEnv,
} from "./fixture-apps.js"

/** How {@link serveApp} serves: more variables, and the host name the app is opened at. */
export interface ServeOptions {
  /** Joins `.env` and the production environment (and may keep the app's own `AUTH_SECRET`). */
  env?: Record<string, string>
  /**
   * `AUTH_URL`'s host, where the browser opens the app (`RunningApp.url` says which):
   * `localhost` for passkeys (an IP address cannot be a WebAuthn relying party).
   */
  host?: "127.0.0.1" | "localhost"
}

/**
 * One server for `app`; `.env` is what the quick start writes (production: the environment).
 * `onBuild` receives what the production build printed. `production: "node-server"` is the
 * README's production step (`qwik add node-server`, `npm run build`, `npm run serve`); the
 * default is `vite preview` of the build.
 */
export async function serveApp(
  app: FixtureApp,
  mode: "dev" | "production",
  onBuild: (log: string) => void = () => {},
  production: "preview" | "node-server" = "preview",
  { env: extraEnv = {}, host = "127.0.0.1" }: ServeOptions = {},
): Promise<RunningApp> {
  const port = await reservePort()
  const url = `http://${host}:${port}`
  const env = { AUTH_SECRET: await newSecret(app), ...extraEnv, AUTH_URL: url }
  writeDotEnv(app, env)
  if (mode === "production") {
    if (production === "node-server") await addNodeServer(app)
    onBuild(await buildProduction(app))
  }
  const server =
    mode === "dev"
      ? await startDev(app, port)
      : production === "node-server"
        ? await startNodeServer(app, port, env)
        : await startProduction(app, port, env)
  // The servers listen on loopback: Chromium resolves `localhost` there itself.
  return { ...server, url }
}

/**
 * The "keeping your own users table" app's user (`fixtures/own-users/src/lib/users.ts`), for
 * the apps built on it (two-factor), and its sign-in form.
 */
export const ADA = { email: "ada@example.com", password: "correct horse battery staple" }

/** Fill the own-users app's form and submit it. */
export async function signInWith(page: Page, credentials: { email: string; password: string }) {
  await page.fill('input[name="options.email"]', credentials.email)
  await page.fill('input[name="options.password"]', credentials.password)
  await clickAndLoad(page, "button")
}

/** The mail settings the quick start (and `init`'s next steps) put in `.env`. */
export function mailEnv(inbox: Pick<SmtpInbox, "url">): Record<string, string> {
  return { EMAIL_SERVER: inbox.url, EMAIL_FROM: "My App <no-reply@example.com>" }
}

/**
 * The console errors of the built-in pages under Qwik 2's dev server: it adds its client
 * (`/@vite/client`, the HMR bridge, `global.css`, inline scripts) to every HTML answer, the
 * built-in pages' own too, whose Content-Security-Policy blocks it (they need none of it).
 */
export const QWIK2_DEV_CONSOLE =
  /^console: .* violates the following Content Security Policy directive/

/** Where the mails of the app go: a real SMTP server on loopback (`EMAIL_SERVER`). */
export type Mailbox = Pick<SmtpInbox, "nextMail">

/**
 * The oldest unread mail to `to`, once it has arrived. Mail leaves after the answer, and the
 * apps open their database on the first request that needs it: the first sign-up's mail waits
 * for PGlite to start and migrate, which on a loaded machine takes well over ten seconds. A
 * minute means a lost mail, not a busy machine.
 */
async function mailTo(inbox: Mailbox, to: string): Promise<{ subject: string; text: string }> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await inbox.nextMail(to)
    } catch (error) {
      if (attempt >= 600) throw error
      await sleep(100)
    }
  }
}

/** Click and wait for the page it leads to (a form post or a link, with or without script). */
async function follow(page: Page, selector: string, path: RegExp): Promise<void> {
  await Promise.all([page.waitForURL((url) => path.test(url.pathname)), page.click(selector)])
}

/** The built-in sign-in page's password form. */
export async function signInOnBuiltInPage(page: Page, user: { email: string; password: string }) {
  const form = page.locator("form", { has: page.locator('input[name="password"]') })
  await form.locator('input[name="email"]').fill(user.email)
  await form.locator('input[name="password"]').fill(user.password)
  await Promise.all([
    page.waitForURL((url) => !url.pathname.startsWith("/auth/callback")),
    form.locator("button:has-text('Sign in with Password')").click(),
  ])
}

/**
 * From the app's page at `home`, signed out ("Not signed in." and a "Sign in" link): the
 * built-in sign-in page, "Create an account", the verification mail, its link's "Confirm",
 * then sign-in, back at `home` ("Signed in as <email>").
 */
export async function signUpAndSignIn(
  page: Page,
  inbox: Mailbox,
  user: { email: string; password: string },
  home: string,
): Promise<void> {
  await page.goto(home)
  await page.getByText("Not signed in.").waitFor()
  await follow(page, "a:has-text('Sign in')", /^\/auth\/signin/)
  await follow(page, "a:has-text('Create an account')", /^\/auth\/password\/signup/)
  await page.fill('input[name="email"]', user.email)
  await page.fill('input[name="password"]', user.password)
  await follow(page, "button:has-text('Create account')", /^\/auth\/password\/sent/)
  await page.getByText("Check your email").waitFor()

  const mail = await mailTo(inbox, user.email)
  const link = /https?:\/\/\S+\/auth\/password\/verify\?\S+/.exec(mail.text)?.[0]
  expect(link, mail.text).toBeDefined()
  await page.goto(link!)
  await follow(page, "button:has-text('Confirm')", /^\/auth\/signin/)

  await page.goto(`/auth/signin?callbackUrl=${encodeURIComponent(home)}`)
  await signInOnBuiltInPage(page, user)
  expect(new URL(page.url()).pathname).toBe(home)
  await page.getByText(`Signed in as ${user.email}`).waitFor()
}

/** Sign out on the app's page: the session cookie goes, the page says so. */
export async function signOut(page: Page): Promise<void> {
  await clickAndLoad(page, "button:has-text('Sign out')")
  await page.getByText("Not signed in.").waitFor()
  expect(await sessionCookie(page.context())).toBeUndefined()
}

/**
 * A password account end to end on the app at `home`: sign up, confirm the mailed link, sign in,
 * the session in an HttpOnly cookie (never in the page) across a reload, sign out; then a wrong
 * password, refused on the sign-in page with no session and one `credentials-refused` line in
 * the server's log.
 */
export async function passwordAccount(
  browser: Browser,
  server: RunningApp,
  inbox: Mailbox,
  options: { js: boolean; home: string },
): Promise<void> {
  const { context, page } = await open(browser, server.url, { javaScriptEnabled: options.js })
  const user = { email: `user-${randomUUID()}@example.com`, password: "a long new password" }
  await signUpAndSignIn(page, inbox, user, options.home)
  const cookie = await sessionCookie(context)
  expect(cookie?.httpOnly).toBe(true)
  expect(await page.content()).not.toContain(cookie!.value)
  await page.reload()
  await page.getByText(`Signed in as ${user.email}`).waitFor()
  await signOut(page)

  const refusals = () =>
    server
      .output()
      .split("\n")
      .filter((l) => l.includes("credentials-refused"))
  const before = refusals().length
  await page.goto(`/auth/signin?callbackUrl=${encodeURIComponent(options.home)}`)
  await signInOnBuiltInPage(page, { email: user.email, password: "not the password" })
  expect(new URL(page.url()).searchParams.get("error")).toBe("CredentialsSignin")
  expect(await page.getByRole("alert").textContent()).toContain("Sign in failed")
  expect(await sessionCookie(context)).toBeUndefined()
  await context.close()
  // The line is written before the answer, but reaches this process through a pipe: wait for it.
  for (let i = 0; i < 50 && refusals().length === before; i++) await sleep(100)
  await sleep(300)
  expect(refusals().length - before).toBe(1)
}

/** What a build printed about Latchkey (the fixture's own `latchkey-fixtures-*` path aside). */
export function latchkeyLines(buildLog: string, app: FixtureApp): string[] {
  const lines = buildLog.replaceAll(app.dir, "<app>").split("\n")
  return lines.filter((line) => /latchkey/i.test(line))
}

/**
 * The quick start's server-only code (its mail setting, its database directory and driver) is
 * in the server build, so a search can find it, and never in the client build; neither is
 * anything matching `clientNever`.
 */
export function expectServerOnly(app: FixtureApp, clientNever: RegExp): void {
  for (const marker of [/EMAIL_SERVER/, /\.data\/auth/, /@electric-sql\/pglite/]) {
    expect(serverFilesMatching(app, marker), String(marker)).not.toEqual([])
    expect(clientFilesMatching(app, marker), String(marker)).toEqual([])
  }
  expect(clientFilesMatching(app, clientNever)).toEqual([])
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
