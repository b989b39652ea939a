/**
 * The password-account flows of a Qwik app on `@latchkey/qwik`'s password actions, as a person
 * does them in Chromium: sign up, confirm the address from the mail, sign in, forget and reset,
 * change the password and the address. Mails are read from a {@link Mailbox}: a real SMTP server
 * ({@link startSmtpMailbox}, the app sends through `SMTP_URL`) or the demo's dev mailbox page.
 *
 * The page's selectors are the demo's by default; another app passes its own
 * ({@link PasswordPages}). Each step waits for the page's own answer, so it works with
 * JavaScript on (Qwik's `<Form>` posts by fetch) and off (plain form posts).
 */
import type { Page } from "playwright-core"
import PostalMime from "postal-mime"
import { expect } from "vitest"
import { startSmtpServer } from "../packages/core/test/authjs-adapters/smtp-inbox.js"

export interface Mail {
  to: string
  subject: string
  text: string
  /** The first link of the mail, if it has one. */
  link: string | undefined
}

/** Where the app's mails can be read. */
export interface Mailbox {
  /** The first mail to `to` whose subject matches, not read yet; waits up to `timeoutMs`. */
  next(to: string, subject: RegExp, timeoutMs?: number): Promise<Mail>
  /** Every mail to `to` not read yet (none waited for). */
  unread(to: string): Promise<Mail[]>
}

export interface SmtpMailbox extends Mailbox {
  /** `smtp://127.0.0.1:<port>`, for the app's `SMTP_URL`. */
  url: string
  close(): Promise<void>
}

/** A real SMTP server on loopback that keeps every mail it receives. */
export async function startSmtpMailbox(): Promise<SmtpMailbox> {
  const server = await startSmtpServer()
  const received = server.received

  const parse = async (to: string, raw: Buffer): Promise<Mail> => {
    const { subject = "", text = "" } = await PostalMime.parse(raw)
    return { to, subject, text, link: /https?:\/\/\S+/.exec(text)?.[0] }
  }
  const take = async (to: string, subject?: RegExp): Promise<Mail | undefined> => {
    for (let i = 0; i < received.length; i++) {
      const entry = received[i]!
      if (!entry.to.includes(to)) continue
      const mail = await parse(to, entry.raw)
      if (subject && !subject.test(mail.subject)) continue
      received.splice(i, 1)
      return mail
    }
    return undefined
  }
  return {
    url: server.url,
    async next(to, subject, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs
      for (;;) {
        const mail = await take(to, subject)
        if (mail) return mail
        if (Date.now() > deadline) throw new Error(`no mail to ${to} matching ${subject}`)
        await new Promise((resolve) => setTimeout(resolve, 100))
      }
    },
    async unread(to) {
      const mails: Mail[] = []
      for (let mail = await take(to); mail; mail = await take(to)) mails.push(mail)
      return mails
    },
    close: server.close,
  }
}

/**
 * The demo's dev mailbox (`/dev/mailbox/`), read through a page of its own so the flow's page
 * keeps its place. Mails there are never "read": `next` returns the newest match.
 */
export function devMailbox(page: Page): Mailbox {
  const read = async (to: string): Promise<Mail[]> => {
    await page.goto("/dev/mailbox/")
    return page.$$eval(
      '[data-testid="mail"]',
      (items, address) =>
        items
          .filter((item) => item.getAttribute("data-to") === address)
          .map((item) => ({
            to: address,
            subject: item.querySelector("strong")?.textContent ?? "",
            text: item.textContent ?? "",
            link:
              item.querySelector('[data-testid="mail-link"]')?.getAttribute("href") ?? undefined,
          })),
      to,
    )
  }
  return {
    async next(to, subject) {
      const mail = (await read(to)).find((m) => subject.test(m.subject))
      if (!mail) throw new Error(`no mail to ${to} matching ${subject} in the dev mailbox`)
      return mail
    },
    unread: read,
  }
}

/** The subjects of the core's password mails (`features/password/messages.ts`). */
export const SUBJECTS = {
  verify: /^Confirm your email address/,
  reset: /^Reset your password/,
  accountExists: /^Someone tried to sign up/,
  emailChange: /^Confirm your new email address/,
  emailChangeNotice: /^Your email address on .* is being changed/,
} as const

/** Paths and selectors of the app's password pages. */
export interface PasswordPages {
  signUp: string
  signIn: string
  forgot: string
  account: string
  /** The field names of the sign-in form (`useSignIn`'s `options.*`). */
  signInEmail: string
  signInPassword: string
  signInSubmit: string
  signUpSubmit: string
  signUpDone: string
  forgotSubmit: string
  forgotDone: string
  resetSubmit: string
  resetDone: string
  /** The element that shows the signed-in address on the account page. */
  accountEmail: string
}

export const DEMO_PAGES: PasswordPages = {
  signUp: "/signup/",
  signIn: "/signin/",
  forgot: "/forgot/",
  account: "/account/",
  signInEmail: 'input[name="options.email"]',
  signInPassword: 'input[name="options.password"]',
  signInSubmit: '[data-testid="sign-in-submit"]',
  signUpSubmit: '[data-testid="sign-up-submit"]',
  signUpDone: '[data-testid="signup-success"]',
  forgotSubmit: '[data-testid="forgot-submit"]',
  forgotDone: '[data-testid="forgot-sent"]',
  resetSubmit: '[data-testid="reset-submit"]',
  resetDone: '[data-testid="reset-done"]',
  accountEmail: '[data-testid="account-email"]',
}

export interface Credentials {
  email: string
  password: string
}

/** Fill and send the sign-up form; resolves on the "check your email" answer. */
export async function signUp(
  page: Page,
  user: Credentials & { name?: string },
  pages = DEMO_PAGES,
): Promise<string> {
  await page.goto(pages.signUp)
  if (user.name !== undefined) await page.fill('input[name="name"]', user.name)
  await page.fill('input[name="email"]', user.email)
  await page.fill('input[name="password"]', user.password)
  await page.click(pages.signUpSubmit)
  await page.waitForSelector(pages.signUpDone)
  return page.content()
}

/**
 * Open a mailed link and press the page's one button (the core's confirm page). Only that POST
 * consumes the link; returns the URL the browser lands on.
 */
export async function confirmLink(page: Page, link: string): Promise<URL> {
  await page.goto(link)
  const before = page.url()
  await Promise.all([
    page.waitForURL((url) => url.href !== before),
    page.click('button[type="submit"]'),
  ])
  return new URL(page.url())
}

/** Sign in on the sign-in page; resolves on the URL the browser lands on. */
export async function signInWithPassword(
  page: Page,
  user: Credentials,
  pages = DEMO_PAGES,
  query = "",
): Promise<URL> {
  await page.goto(`${pages.signIn}${query}`)
  const before = page.url()
  await page.fill(pages.signInEmail, user.email)
  await page.fill(pages.signInPassword, user.password)
  await Promise.all([
    page.waitForURL(
      (url) =>
        url.href !== before &&
        (!url.pathname.startsWith(pages.signIn) || url.searchParams.has("error")),
    ),
    page.click(pages.signInSubmit),
  ])
  return new URL(page.url())
}

/** Sign up, confirm the address from the mail, sign in; lands on the account page. */
export async function newVerifiedUser(
  page: Page,
  mailbox: Mailbox,
  user: Credentials & { name?: string },
  pages = DEMO_PAGES,
): Promise<void> {
  await signUp(page, user, pages)
  const mail = await mailbox.next(user.email, SUBJECTS.verify)
  expect(mail.link).toBeTruthy()
  await confirmLink(page, mail.link!)
  await signInWithPassword(page, user, pages, `?callbackUrl=${encodeURIComponent(pages.account)}`)
  await page.waitForSelector(pages.accountEmail)
}

/** Ask for a reset link on the forgot page. */
export async function forgotPassword(page: Page, email: string, pages = DEMO_PAGES) {
  await page.goto(pages.forgot)
  await page.fill('input[name="email"]', email)
  await page.click(pages.forgotSubmit)
  await page.waitForSelector(pages.forgotDone)
}

/** Open a reset link and choose `password`; resolves once the page says it is done. */
export async function resetPassword(
  page: Page,
  link: string,
  password: string,
  pages = DEMO_PAGES,
) {
  await page.goto(link)
  await page.fill('input[name="password"]', password)
  await page.click(pages.resetSubmit)
  await page.waitForSelector(pages.resetDone)
}

/**
 * The password and address forms of an account page, each found by its submit button (its
 * fields by their `name`: `currentPassword`, `password`, `email`), and what a form answered.
 */
export interface AccountForms {
  changePassword: string
  setPassword: string
  removePassword: string
  changeEmail: string
  /** The answer of a form that did its change. */
  done: string
  /** The answer of a form that was refused, with the reason for the person on the page. */
  refused: string
}

/** What an account form answered: whether the change was made, and the page's words. */
export interface AccountAnswer {
  done: boolean
  text: string
}

/**
 * Open the account page, fill the form `submit` belongs to and send it; resolves once the page
 * shows the answer (re-rendered in place with JavaScript, a new page without).
 */
export async function sendAccountForm(
  page: Page,
  submit: string,
  fields: Record<string, string>,
  forms: AccountForms,
  pages: PasswordPages,
): Promise<AccountAnswer> {
  await page.goto(pages.account)
  const form = page.locator("form", { has: page.locator(submit) })
  for (const [name, value] of Object.entries(fields)) {
    await form.locator(`input[name="${name}"]`).fill(value)
  }
  await form.locator(submit).click()
  const answer = page.locator(`${forms.done}, ${forms.refused}`).first()
  await answer.waitFor()
  return {
    done: await page.locator(forms.done).isVisible(),
    text: (await answer.textContent()) ?? "",
  }
}

/**
 * A new password account on the demo, signed in on the account page. The address is confirmed
 * through the dev mailbox when the demo has one (a demo without any mail runs without address
 * verification, and its sign-up page says so).
 */
export async function newDemoUser(
  page: Page,
  user: Credentials & { name?: string },
): Promise<void> {
  await signUp(page, user)
  if (await page.isVisible('[data-testid="open-mailbox"]')) {
    const mail = await devMailbox(page).next(user.email, SUBJECTS.verify)
    await confirmLink(page, mail.link!)
  }
  await signInWithPassword(page, user, DEMO_PAGES, "?callbackUrl=%2Faccount%2F")
  await page.waitForSelector(DEMO_PAGES.accountEmail)
}

/** A page's text without its markup, scripts and per-request tokens (for "same page" checks). */
export function visibleText(html: string): string {
  return html
    .replace(/<(script|style)[\s\S]*?<\/\1>/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/\s+/g, " ")
    .trim()
}
