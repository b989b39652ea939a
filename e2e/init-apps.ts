/**
 * `npx latchkey init` in a fixture app, as the init suites run it (`init.e2e.ts`,
 * `init-choices.e2e.ts`): our packages from their `npm pack` tarballs, then what init's "Next
 * steps" ask the user to set, and the flows on init's account page (`/account/`, "Signed in as
 * <email>") and the built-in sign-in page.
 */
import { appendFileSync, readFileSync } from "node:fs"
import { dirname, join } from "node:path"
import { parseEnv } from "node:util"
import { TOTP } from "otpauth"
import type { Browser, Page } from "playwright-core"
import { afterAll, beforeAll } from "vitest"
import { launch } from "./browser.js"
import { type FixtureApp, latchkeyCommand, packPackages, removeFixtures } from "./fixture-apps.js"
import { type SmtpMailbox, startSmtpMailbox } from "./password-flows.js"
import { type Mailbox, mailEnv, signOut } from "./quickstart-flows.js"
import { addVirtualAuthenticator, press } from "./webauthn.js"

export interface InitOptions {
  /** `--sessions` (init's default for the target when absent). */
  sessions?: string
  /** `--target` (node when absent). */
  target?: string
  /** `--force`: replace the files an earlier run wrote for another choice. */
  force?: boolean
  /** What the user's shell exports for init (`DATABASE_URL` for its migrations). */
  env?: Record<string, string>
}

/**
 * `npx latchkey init --yes --methods <methods>`, taking our packages from their tarballs (until
 * they are published); resolves to what it printed.
 */
export async function init(
  app: FixtureApp,
  methods: string,
  { sessions, target, force = false, env = {} }: InitOptions = {},
): Promise<string> {
  const packs = dirname((await packPackages())["@latchkey/core"]!)
  const args = ["init", "--yes", "--methods", methods, "--install-from", packs]
  if (sessions) args.push("--sessions", sessions)
  if (target) args.push("--target", target)
  if (force) args.push("--force")
  // `npm install` as the e2e runs it everywhere: from npm's cache when it has the package.
  return latchkeyCommand(app, args, { npm_config_prefer_offline: "true", ...env })
}

/** The variables init wrote to `.env`, and the mail settings its "Next steps" ask for. */
export function appEnv(app: FixtureApp, inbox: Pick<SmtpMailbox, "url">): Record<string, string> {
  const written = parseEnv(readFileSync(join(app.dir, ".env"), "utf8"))
  return { AUTH_SECRET: String(written.AUTH_SECRET), ...mailEnv(inbox) }
}

/** The built-in sign-in page, coming back to init's account page. */
export const SIGN_IN = "/auth/signin?callbackUrl=%2Faccount%2F"

/** Wait until the page is init's account page, signed in as `email`. */
export async function signedInAs(page: Page, email: string): Promise<void> {
  await page.waitForURL((url) => url.pathname.startsWith("/account"))
  await page.getByText(`Signed in as ${email}`).waitFor()
}

/**
 * On the built-in sign-in page (with Chromium's virtual authenticator): sign up with a passkey
 * for `email`, see it on the account page, sign out, and sign back in with the passkey alone.
 */
export async function passkeySignUpAndBack(page: Page, email: string): Promise<void> {
  await addVirtualAuthenticator(page)
  await page.goto(SIGN_IN)
  await page.locator('form[data-passkey] input[name="email"]').fill(email)
  await press(page, "form[data-passkey] button")
  await signedInAs(page, email)
  await signOut(page)
  await page.goto(SIGN_IN)
  // No click: init's Passkey() offers the passkey in the email field's autofill (conditional
  // mediation, `enableConditionalUI` on by default), which Chromium's virtual authenticator
  // answers as a person picking it from the list would. A press as well raced that sign-in: the
  // button's own ceremony replaced the challenge the autofill's answer was checked against
  // (WebAuthnVerificationError), or the page was gone before the press.
  await signedInAs(page, email)
}

/**
 * One Chromium and one SMTP server for the whole file, handed to `use` before its tests; both
 * closed after them, and the file's fixture apps removed (unless `E2E_KEEP_FIXTURES`).
 */
export function sharedBrowserAndInbox(use: (browser: Browser, inbox: SmtpMailbox) => void): void {
  let browser: Browser | undefined
  let inbox: SmtpMailbox | undefined
  beforeAll(async () => {
    ;[browser, inbox] = await Promise.all([launch(), startSmtpMailbox()])
    use(browser, inbox)
  })
  afterAll(async () => {
    await browser?.close()
    await inbox?.close()
    if (!process.env.E2E_KEEP_FIXTURES) removeFixtures()
  })
}

/**
 * The mails of init's dev mailbox (`/dev/mailbox/`), read in a browser as a person reads them:
 * the newest mail to `to` that this reader has not handed out yet, its link as the text.
 */
export function devMailboxReader(browser: Browser, url: string): Mailbox {
  const seen = new Set<string>()
  return {
    async nextMail(to) {
      const context = await browser.newContext({ baseURL: url })
      try {
        const page = await context.newPage()
        for (let attempt = 0; attempt < 50; attempt++) {
          await page.goto("/dev/mailbox/")
          const mails = page.locator(`li[data-to="${to}"]`)
          for (const mail of await mails.all()) {
            const link = await mail.locator("a").first().getAttribute("href")
            const subject = (await mail.locator("strong").textContent()) ?? ""
            if (link && !seen.has(link)) {
              seen.add(link)
              return { subject, text: link }
            }
          }
          await new Promise((resolve) => setTimeout(resolve, 200))
        }
        throw new Error(`no mail to ${to} in /dev/mailbox/`)
      } finally {
        await context.close()
      }
    },
  }
}

/** The code of an authenticator app for `secret`, `steps` periods from now. */
export function totp(secret: string, steps = 0): string {
  return new TOTP({ secret, digits: 6, period: 30 }).generate({
    timestamp: Date.now() + steps * 30_000,
  })
}

/**
 * init's `.env` as its "Next steps" complete it for production: the mail server and sender,
 * appended to what init wrote (never rewritten: the test serves init's own file).
 */
export function addMailToDotEnv(app: FixtureApp, inbox: Pick<SmtpMailbox, "url">): void {
  const lines = Object.entries(mailEnv(inbox)).map(([key, value]) => `${key}=${value}\n`)
  appendFileSync(join(app.dir, ".env"), lines.join(""))
}

/** The OpenID Provider's own sign-in page (any name and email), back on the account page. */
export async function signInWithOidc(
  page: Page,
  oidc: { issuer: string },
  email: string,
): Promise<void> {
  await page.goto(SIGN_IN)
  await Promise.all([
    page.waitForURL((url) => url.origin === oidc.issuer),
    page.click("button:has-text('Sign in with OpenID Connect')"),
  ])
  await page.fill('input[name="name"]', "Ada Lovelace")
  await page.fill('input[name="email"]', email)
  await Promise.all([
    page.waitForURL((url) => url.origin !== oidc.issuer),
    page.click('button[value="login"]'),
  ])
  await signedInAs(page, email)
}
