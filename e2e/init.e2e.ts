/**
 * `npx latchkey init`, as a user runs it: Qwik's unmodified empty starter (v1 and v2) with the
 * core and the binding installed from `npm pack` tarballs, then `npx latchkey init --yes` (which
 * installs what else the choice needs, writes the files, adds the Vite plugin, `.env` and the
 * migrations), then what init's "Next steps" say: `EMAIL_SERVER` and `EMAIL_FROM` in `.env` (a
 * real SMTP server on loopback). In Chromium, under `vite dev` and as a production build served
 * as the README says, with JavaScript on and off: sign up on the built-in pages, open the
 * verification link of the mail, confirm, sign in, see the session on init's account page after
 * a reload, sign out. Qwik 1 gets password and passkey sign-in (the passkey signs in too, with
 * Chromium's virtual authenticator) and a passkey account setting and removing a password on
 * init's account page; Qwik 2 the default, password. On both, in both modes, JavaScript on and
 * off: forgot password and reset from the mail (`password-flows.ts` on the built-in pages), and
 * on init's account page a change of the password and of the address. One install per starter,
 * reused by every mode.
 */
import { randomUUID } from "node:crypto"
import { existsSync, readFileSync, renameSync, rmSync, statSync } from "node:fs"
import { join } from "node:path"
import { parseEnv } from "node:util"
import type { Browser, Locator, Page } from "playwright-core"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { open, pageErrors } from "./browser.js"
import {
  addNodeServer,
  buildPreview,
  buildProduction,
  createApp,
  type FixtureApp,
  type QwikVersion,
  qwik1,
  type RunningApp,
  reservePort,
  startDev,
  startNodeServer,
  startProduction,
} from "./fixture-apps.js"
import {
  addMailToDotEnv,
  devMailboxReader,
  init,
  passkeySignUpAndBack,
  sharedBrowserAndInbox,
  signedInAs,
  totp,
} from "./init-apps.js"
import {
  type AccountForms,
  confirmLink,
  forgotPassword,
  newVerifiedUser,
  type PasswordPages,
  resetPassword,
  type SmtpMailbox,
  SUBJECTS,
  sendAccountForm,
  signInWithPassword,
} from "./password-flows.js"
import {
  latchkeyLines,
  type Mailbox,
  passwordAccount,
  QWIK2_DEV_CONSOLE,
  signOut,
  signUpAndSignIn,
} from "./quickstart-flows.js"
import { qwik2 } from "./qwik2-apps.js"
import { addVirtualAuthenticator, press } from "./webauthn.js"

const SETUP_TIMEOUT = 300_000

interface Starter {
  name: string
  qwik: QwikVersion
  methods: string
  /** The README's production step for this Qwik: node-server (Qwik 1), `vite preview` (Qwik 2). */
  production: "node-server" | "preview"
}

const starters: Starter[] = [
  { name: "qwik1", qwik: qwik1, methods: "password,passkey", production: "node-server" },
  { name: "qwik2", qwik: qwik2, methods: "password", production: "preview" },
]

let browser: Browser
let inbox: SmtpMailbox

sharedBrowserAndInbox((b, i) => {
  browser = b
  inbox = i
})

/** The oldest unread mail to `to`, for `passwordAccount`. */
const nextMail = (to: string) => inbox.next(to, /^/)

/**
 * The built-in password pages (`/auth/password/*`, the built-in sign-in page) and init's account
 * page, which says "Signed in as <email>" (or "Not signed in.").
 */
const INIT_PAGES: PasswordPages = {
  signUp: "/auth/password/signup",
  signIn: "/auth/signin",
  forgot: "/auth/password/forgot",
  account: "/account/",
  signInEmail: 'form:has(input[name="password"]) input[name="email"]',
  signInPassword: 'form:has(input[name="password"]) input[name="password"]',
  signInSubmit: "button:has-text('Sign in with Password')",
  signUpSubmit: "button:has-text('Create account')",
  signUpDone: "text=Check your email",
  forgotSubmit: "button:has-text('Send a reset link')",
  forgotDone: "text=Check your email",
  resetSubmit: "button:has-text('Set password and sign in')",
  resetDone: "text=Signed in as",
  accountEmail: "text=Signed in as",
}

/**
 * Forgot password on the built-in pages, the reset mail, a new password: a second browser
 * signed in as the same user is signed out, the browser that reset is signed in (back on the
 * account page it signed in from), with the new password only.
 */
async function forgetAndReset(server: RunningApp, js: boolean): Promise<void> {
  const user = { email: `init-reset-${randomUUID()}@example.com`, password: "a long old password" }
  const a = await open(browser, server.url, { javaScriptEnabled: js })
  const b = await open(browser, server.url, { javaScriptEnabled: js })
  await newVerifiedUser(a.page, inbox, user, INIT_PAGES)
  await signInWithPassword(b.page, user, INIT_PAGES, "?callbackUrl=%2Faccount%2F")
  await b.page.getByText(`Signed in as ${user.email}`).waitFor()
  await signOut(a.page)

  await forgotPassword(a.page, user.email, INIT_PAGES)
  const mail = await inbox.next(user.email, SUBJECTS.reset)
  expect(mail.link).toMatch(/\/auth\/password\/reset\?/)
  const password = "a long new password"
  await resetPassword(a.page, mail.link!, password, INIT_PAGES)
  expect(new URL(a.page.url()).pathname).toBe("/account/")
  await a.page.getByText(`Signed in as ${user.email}`).waitFor()

  await b.page.goto("/account/")
  await b.page.getByText("Not signed in.").waitFor()
  const old = await signInWithPassword(b.page, user, INIT_PAGES)
  expect(old.searchParams.get("error")).toBe("CredentialsSignin")
  await signInWithPassword(b.page, { ...user, password }, INIT_PAGES, "?callbackUrl=%2Faccount%2F")
  await b.page.getByText(`Signed in as ${user.email}`).waitFor()
  await Promise.all([a.context.close(), b.context.close()])
}

/** init's account page: a `<Form>` per change, its answer a status line or an alert. */
const INIT_FORMS: AccountForms = {
  changePassword: "button:has-text('Change password')",
  setPassword: "button:has-text('Set password')",
  removePassword: "button:has-text('Remove password')",
  changeEmail: "button:has-text('Change address')",
  done: '[role="status"]',
  refused: '[role="alert"]',
}

/** Whether a browser is signed in, and as whom, on init's account page. */
async function expectSignedIn(page: Page, email: string | null): Promise<void> {
  await page.goto("/account/")
  await page.getByText(email ? `Signed in as ${email}` : "Not signed in.").waitFor()
}

/**
 * init's account page (Qwik 1), signed in with a password. A wrong current password is refused
 * with the page's message; a change signs out the user's other browser, and only the new
 * password signs in. A new address waits for the link mailed to it (the old one gets a notice),
 * then signs in instead of the old one. The password cannot be removed: it is the only way in.
 */
async function accountChanges(server: RunningApp, js: boolean): Promise<void> {
  const user = {
    email: `init-account-${randomUUID()}@example.com`,
    password: "a long old password",
  }
  const a = await open(browser, server.url, { javaScriptEnabled: js })
  const b = await open(browser, server.url, { javaScriptEnabled: js })
  await newVerifiedUser(a.page, inbox, user, INIT_PAGES)
  await signInWithPassword(b.page, user, INIT_PAGES)
  await expectSignedIn(b.page, user.email)

  const send = (submit: string, fields: Record<string, string>) =>
    sendAccountForm(a.page, submit, fields, INIT_FORMS, INIT_PAGES)
  const wrong = { currentPassword: "not the password", password: "whatever else" }
  expect(await send(INIT_FORMS.changePassword, wrong)).toEqual({
    done: false,
    text: "The current password is not right.",
  })
  const password = "a long new password"
  const change = { currentPassword: user.password, password }
  expect((await send(INIT_FORMS.changePassword, change)).done).toBe(true)
  await expectSignedIn(a.page, user.email)
  await expectSignedIn(b.page, null)
  const old = await signInWithPassword(b.page, user, INIT_PAGES)
  expect(old.searchParams.get("error")).toBe("CredentialsSignin")
  user.password = password
  await signInWithPassword(b.page, user, INIT_PAGES)
  await expectSignedIn(b.page, user.email)

  const email = `init-moved-${randomUUID()}@example.com`
  const move = { email, currentPassword: user.password }
  expect((await send(INIT_FORMS.changeEmail, move)).done).toBe(true)
  await inbox.next(user.email, SUBJECTS.emailChangeNotice)
  const proof = await inbox.next(email, SUBJECTS.emailChange)
  await expectSignedIn(a.page, user.email)
  await confirmLink(a.page, proof.link!)
  await expectSignedIn(a.page, email)
  await signOut(b.page)
  const before = await signInWithPassword(b.page, user, INIT_PAGES)
  expect(before.searchParams.get("error")).toBe("CredentialsSignin")
  user.email = email
  await signInWithPassword(b.page, user, INIT_PAGES)
  await expectSignedIn(b.page, user.email)

  const removed = await send(INIT_FORMS.removePassword, { currentPassword: user.password })
  expect(removed).toMatchObject({
    done: false,
    text: expect.stringContaining("last way to sign in"),
  })
  await Promise.all([a.context.close(), b.context.close()])
}

/**
 * A passkey account on init's account page (Qwik 1) sets a password, which signs in in another
 * browser once the address is proved, then removes it (the passkey is still a way in): the
 * password is refused.
 */
async function passkeyAccountPassword(server: RunningApp): Promise<void> {
  const user = {
    email: `init-pk-pw-${randomUUID()}@example.com`,
    password: "a long first password",
  }
  const a = await open(browser, server.url)
  await addVirtualAuthenticator(a.page)
  await a.page.goto("/auth/signin?callbackUrl=%2Faccount%2F")
  await a.page.locator('form[data-passkey] input[name="email"]').fill(user.email)
  await press(a.page, "form[data-passkey] button")
  await a.page.getByText("No password yet").waitFor()
  const fields = { password: user.password }
  const set = await sendAccountForm(a.page, INIT_FORMS.setPassword, fields, INIT_FORMS, INIT_PAGES)
  expect(set.done).toBe(true)
  // Another browser, without the passkey (whose autofill would sign in on the sign-in page).
  // The password is right, but a passkey sign-up proved no address: the sign-in page offers
  // the link again, and once the account confirms it (in the browser signed in to it: opened
  // anywhere else, the link would take the account back from whoever set it up) the password
  // signs in.
  const b = await open(browser, server.url)
  const unproven = await signInWithPassword(b.page, user, INIT_PAGES)
  expect(unproven.searchParams.get("code")).toBe("email-unverified")
  const resend = b.page.locator("form[data-latchkey-resend]")
  await resend.locator('input[name="email"]').fill(user.email)
  await resend.locator("button").click()
  await b.page.getByText("Check your email").waitFor()
  await confirmLink(a.page, (await inbox.next(user.email, SUBJECTS.verify)).link!)
  await signInWithPassword(b.page, user, INIT_PAGES)
  await expectSignedIn(b.page, user.email)
  await signOut(b.page)

  const removed = await sendAccountForm(
    a.page,
    INIT_FORMS.removePassword,
    { currentPassword: user.password },
    INIT_FORMS,
    INIT_PAGES,
  )
  expect(removed.done).toBe(true)
  await a.page.getByText("No password yet").waitFor()
  const gone = await signInWithPassword(b.page, user, INIT_PAGES)
  expect(gone.searchParams.get("error")).toBe("CredentialsSignin")
  expect(gone.searchParams.get("code")).not.toBe("email-unverified")
  await Promise.all([a.context.close(), b.context.close()])
}

/**
 * Two-factor sign-in on init's account page: every way in is listed (the password); turned on
 * with a code of the secret it shows, which lists ten recovery codes once; then the password
 * alone no longer signs in (the built-in code page asks for a code, which does); turned off.
 */
async function twoFactorOnAccountPage(server: RunningApp, js: boolean): Promise<void> {
  const user = { email: `init-2fa-${randomUUID()}@example.com`, password: "a long old password" }
  const { context, page } = await open(browser, server.url, { javaScriptEnabled: js })
  await newVerifiedUser(page, inbox, user, INIT_PAGES)
  await page.goto("/account/")
  await page.locator('[data-two-factor="off"]').waitFor()
  expect(await page.locator("[data-ways-in] li").allTextContents()).toEqual(["Password"])

  await page.click("button:has-text('Turn on two-factor sign-in')")
  const secret = ((await page.locator("[data-two-factor-secret]").textContent()) ?? "").trim()
  expect(secret).toMatch(/^[A-Z2-7]{32}$/)
  await page.fill('input[name="code"]', totp(secret))
  await page.click("button:has-text('Confirm')")
  await page.locator("[data-recovery-codes] li").first().waitFor()
  expect(await page.locator("[data-recovery-codes] li").count()).toBe(10)
  await page.locator('[data-two-factor="on"]').waitFor()

  await signOut(page)
  const pending = await signInWithPassword(page, user, INIT_PAGES, "?callbackUrl=%2Faccount%2F")
  expect(pending.pathname).toBe("/auth/two-factor")
  await page.fill('input[name="code"]', totp(secret, 1))
  await page.click("button:has-text('Verify')")
  await signedInAs(page, user.email)
  await page.click("button:has-text('Turn off two-factor sign-in')")
  await page.locator('[data-two-factor="off"]').waitFor()
  await context.close()
}

/** Where a test reads the app's mails: the sign-up's, and the invitation link of an organization. */
interface OrganizationMail {
  mailbox: Mailbox
  invitation(to: string): Promise<string>
}

/** The dev mailbox page of init's app (development without EMAIL_SERVER). */
function devMailboxMail(url: string): OrganizationMail {
  const mailbox = devMailboxReader(browser, url)
  return {
    mailbox,
    async invitation(to) {
      const mail = await mailbox.nextMail(to)
      expect(mail.subject).toMatch(/^Join /)
      return mail.text
    },
  }
}

/** The SMTP server of EMAIL_SERVER: the invitation is the core's template, sent by the app. */
const smtpMail: OrganizationMail = {
  mailbox: { nextMail },
  async invitation(to) {
    const mail = await inbox.next(to, /^Join /)
    expect(mail.text).toContain("invites you to")
    return mail.link!
  },
}

/** Click a submit button of init's account page and wait for its answer, done or refused. */
async function submitForm(page: Page, button: Locator, testId: string): Promise<string> {
  await button.click()
  const answer = page.locator(`[data-testid="${testId}-done"], [data-testid="${testId}-error"]`)
  await answer.waitFor()
  const outcome = (await answer.getAttribute("data-testid"))!.slice(testId.length + 1)
  return outcome === "done" ? "done" : `error: ${await answer.textContent()}`
}

/**
 * Organizations on init's account page: the owner creates one (it is active, they own it) and
 * invites a second user by mail; the second, signed up with a confirmed address, opens the
 * link, accepts on the built-in page and sees the organization on their account page; the
 * owner makes them an admin, then removes them; the removed member, still signed in, no longer
 * sees it on the next load of their account page.
 */
async function organizationsOnAccountPage(
  server: RunningApp,
  mail: OrganizationMail,
  js: boolean,
): Promise<void> {
  const tag = randomUUID().slice(0, 8)
  const ownerUser = { email: `init-owner-${tag}@example.com`, password: "a long owner password" }
  const guestUser = { email: `init-guest-${tag}@example.com`, password: "a long guest password" }
  const owner = await open(browser, server.url, { javaScriptEnabled: js })
  const guest = await open(browser, server.url, { javaScriptEnabled: js })
  await signUpAndSignIn(owner.page, mail.mailbox, ownerUser, "/account/")
  await signUpAndSignIn(guest.page, mail.mailbox, guestUser, "/account/")
  const byTestId = (page: Page, id: string) => page.locator(`[data-testid="${id}"]`)
  const member = (page: Page, email: string) =>
    page.locator(`[data-testid="member"][data-email="${email}"]`)
  const organization = (page: Page) =>
    page.locator(`[data-testid="organization"][data-slug="team-${tag}"]`)

  // Created: listed, active, its owner the only member. The slug's case is ignored.
  const { page } = owner
  await byTestId(page, "no-organizations").waitFor()
  await byTestId(page, "organization-name").fill(`Team ${tag}`)
  await byTestId(page, "organization-slug").fill(`TEAM-${tag}`)
  const create = byTestId(page, "organization-create")
  expect(await submitForm(page, create, "organization-create")).toBe("done")
  await organization(page).locator('[data-testid="organization-active"]').waitFor()
  expect(
    await member(page, ownerUser.email).locator('[data-testid="member-role"]').textContent(),
  ).toBe("owner")

  // An invitation by mail: pending on the page, the link in the mail only.
  await byTestId(page, "invite-email").fill(guestUser.email)
  await byTestId(page, "invite-role").selectOption("member")
  expect(await submitForm(page, byTestId(page, "invite-send"), "invite")).toBe("done")
  await page.locator('[data-testid="invitation"]', { hasText: guestUser.email }).waitFor()
  const link = await mail.invitation(guestUser.email)
  expect(new URL(link).pathname).toBe("/auth/organization/accept")
  expect(await page.content()).not.toContain(new URL(link).searchParams.get("token"))

  // Accepted on the built-in page: the guest's account page lists it, as a member.
  await guest.page.goto(link)
  await guest.page.getByText(`Team ${tag}`).first().waitFor()
  await guest.page.click('button:has-text("Accept the invitation")')
  await guest.page.waitForURL((url) => !url.pathname.startsWith("/auth/organization"))
  await guest.page.goto("/account/")
  const joined = organization(guest.page)
  expect(await joined.locator('[data-testid="organization-role"]').textContent()).toBe("member")
  expect(await byTestId(guest.page, "invite-email").count()).toBe(0)

  // The owner makes them an admin: the owner's page says so, and so does theirs.
  await page.goto("/account/")
  expect(await page.locator('[data-testid="invitation"]').count()).toBe(0)
  const row = member(page, guestUser.email)
  await row.locator('[data-testid="member-role-select"]').selectOption("admin")
  const save = row.locator('[data-testid="member-role-save"]')
  expect(await submitForm(page, save, "member-role")).toBe("done")
  await expect
    .poll(() => member(page, guestUser.email).locator('[data-testid="member-role"]').textContent())
    .toBe("admin")
  await guest.page.goto("/account/")
  expect(await joined.locator('[data-testid="organization-role"]').textContent()).toBe("admin")

  // Removed: gone from the owner's list; the guest, still signed in, no longer sees it.
  const remove = member(page, guestUser.email).locator('[data-testid="member-remove"]')
  expect(await submitForm(page, remove, "member-remove")).toBe("done")
  await expect.poll(() => member(page, guestUser.email).count()).toBe(0)
  await guest.page.goto("/account/")
  await guest.page.getByText(`Signed in as ${guestUser.email}`).waitFor()
  await byTestId(guest.page, "no-organizations").waitFor()
  expect(await organization(guest.page).count()).toBe(0)
  await Promise.all([owner.context.close(), guest.context.close()])
}

/** What init wrote to `.env` (and the mail lines added as its "Next steps" say). */
function dotEnv(app: FixtureApp): Record<string, string> {
  const parsed = parseEnv(readFileSync(join(app.dir, ".env"), "utf8"))
  return Object.fromEntries(Object.entries(parsed).map(([k, v]) => [k, String(v)]))
}

/**
 * The production build with init's database moved aside: whether the build created it again
 * (it opened the database: every static-generation worker at once, the worker errors and hangs
 * of issue 46) and what it printed. The database is put back afterwards.
 */
async function buildWithoutDatabase(app: FixtureApp): Promise<{ log: string; opened: boolean }> {
  const data = join(app.dir, ".data/auth")
  const aside = join(app.dir, ".data/auth-before-build")
  renameSync(data, aside)
  try {
    const log = await buildProduction(app)
    return { log, opened: existsSync(data) }
  } finally {
    rmSync(data, { recursive: true, force: true })
    renameSync(aside, data)
  }
}

/**
 * init's app served at `localhost` (passkeys need a host name) with the `.env` init wrote:
 * `npm run dev`, or the production build, by node-server with the variables in the server's
 * environment (AUTH_URL among them, as the README says), or by `vite preview`, which reads
 * `.env` (no AUTH_URL in it: it signs in on its own port).
 */
async function serveInit(
  app: FixtureApp,
  how: "dev" | "node-server" | "preview",
): Promise<RunningApp> {
  const port = await reservePort()
  const url = `http://localhost:${port}`
  const server =
    how === "dev"
      ? await startDev(app, port)
      : how === "node-server"
        ? await startNodeServer(app, port, {
            ...dotEnv(app),
            AUTH_TRUST_HOST: "false",
            AUTH_URL: url,
          })
        : await startProduction(app, port, {})
  return { ...server, url }
}

/** Console errors the mode being tested expects (`QWIK2_DEV_CONSOLE`). */
let expectedConsole: RegExp | undefined

afterEach(() => {
  const errors = pageErrors.splice(0)
  expect(errors.filter((e) => !expectedConsole?.test(e))).toEqual([])
})

for (const starter of starters) {
  describe(`npx latchkey init --methods ${starter.methods}, ${starter.name} starter`, () => {
    let app: FixtureApp
    let firstRun = ""

    beforeAll(async () => {
      app = await createApp(`init-${starter.name}`, [], [], starter.qwik)
      firstRun = await init(app, starter.methods)
    }, SETUP_TIMEOUT)

    it(
      "installs, writes the files and migrates; a second run changes nothing",
      async () => {
        expect(firstRun).toContain(
          "added devDependencies @latchkey/adapter-postgres, @electric-sql/pglite",
        )
        for (const file of [
          "src/routes/plugin@auth.ts",
          "src/lib/db.ts",
          "src/routes/account/index.tsx",
          "src/routes/dev/mailbox/index.tsx",
        ]) {
          expect(firstRun).toContain(`${file}: created`)
        }
        expect(firstRun).toMatch(/migrations: .*applied/)
        // The secret is the owner's alone; package.json names no directory of this machine.
        expect(statSync(join(app.dir, ".env")).mode & 0o777).toBe(0o600)
        expect(readFileSync(join(app.dir, "package.json"), "utf8")).not.toMatch(/"file:\//)
        const again = await init(app, starter.methods)
        expect(again).not.toMatch(/created|overwritten|kept|added|install:/)
        expect(again).toContain("src/routes/plugin@auth.ts: unchanged")
      },
      SETUP_TIMEOUT,
    )

    // `.env` exactly as init wrote it: no mail server, no AUTH_URL.
    describe("dev, with nothing but what init wrote", () => {
      let server: RunningApp
      beforeAll(async () => {
        server = await serveInit(app, "dev")
        if (starter.qwik === qwik2) expectedConsole = QWIK2_DEV_CONSOLE
      }, SETUP_TIMEOUT)
      afterAll(async () => {
        expectedConsole = undefined
        await server?.stop()
        // What init's "Next steps" ask for before production; the modes below use it.
        addMailToDotEnv(app, inbox)
      })

      for (const js of [true, false]) {
        it(`signs up with the confirmation mail from the dev mailbox, signs in and out, ${js ? "with" : "without"} JavaScript`, () =>
          passwordAccount(browser, server, devMailboxReader(browser, server.url), {
            js,
            home: "/account/",
          }))
      }

      for (const js of [true, false]) {
        it(`organizations on the account page, the invitation from the dev mailbox, ${js ? "with" : "without"} JavaScript`, () =>
          organizationsOnAccountPage(server, devMailboxMail(server.url), js))
      }
    })

    for (const mode of ["dev", "production"] as const) {
      describe(mode, () => {
        let server: RunningApp
        let buildLog = ""
        let buildOpenedDatabase = true

        beforeAll(async () => {
          if (mode === "production") {
            if (starter.production === "node-server") await addNodeServer(app)
            ;({ log: buildLog, opened: buildOpenedDatabase } = await buildWithoutDatabase(app))
          }
          server = await serveInit(app, mode === "dev" ? "dev" : starter.production)
          if (mode === "dev" && starter.qwik === qwik2) expectedConsole = QWIK2_DEV_CONSOLE
        }, SETUP_TIMEOUT)
        afterAll(async () => {
          expectedConsole = undefined
          await server?.stop()
        })

        for (const js of [true, false]) {
          it(`turns two-factor sign-in on and off on the account page, ${js ? "with" : "without"} JavaScript`, () =>
            twoFactorOnAccountPage(server, js))
        }

        if (mode === "production") {
          for (const js of [true, false]) {
            it(`organizations on the account page, the invitation by SMTP, ${js ? "with" : "without"} JavaScript`, () =>
              organizationsOnAccountPage(server, smtpMail, js))
          }

          it("builds without opening the database or a worker error; no dev mailbox", async () => {
            expect(buildOpenedDatabase).toBe(false)
            expect(buildLog).not.toMatch(/worker exit|Error:/i)
            const mailbox = await fetch(
              `${server.url.replace("localhost", "127.0.0.1")}/dev/mailbox/`,
            )
            expect(mailbox.status).toBe(404)
          })
        }

        if (mode === "production" && starter.production === "node-server") {
          // The starter's `npm run preview` (Qwik 1: `build.preview`, then `vite preview`),
          // on the same build, with init's `.env` and the mail lines only.
          it("npm run preview signs up and in, on its own port", async () => {
            await buildPreview(app)
            const preview = await serveInit(app, "preview")
            try {
              await passwordAccount(browser, preview, { nextMail }, { js: true, home: "/account/" })
            } finally {
              await preview.stop()
            }
          })
        }

        for (const js of [true, false]) {
          it(`signs up, confirms the mailed link, signs in and out, refuses a wrong password, ${js ? "with" : "without"} JavaScript`, () =>
            passwordAccount(browser, server, { nextMail }, { js, home: "/account/" }))
        }

        // The reset flow on the built-in pages.
        for (const js of [true, false]) {
          it(`forgets the password, resets it from the mail: the other browser is signed out, ${js ? "with" : "without"} JavaScript`, () =>
            forgetAndReset(server, js))
        }

        // init's account page: the password and address forms (the Password provider).
        for (const js of [true, false]) {
          it(`changes the password and the address on the account page, ${js ? "with" : "without"} JavaScript`, () =>
            accountChanges(server, js))
        }
        if (mode === "production" && starter.methods.includes("passkey")) {
          it("sets a password for a passkey account on the account page, and removes it", () =>
            passkeyAccountPassword(server))
        }

        if (starter.methods.includes("passkey")) {
          it("signs up with a passkey on the built-in sign-in page, and back in with it", async () => {
            const { context, page } = await open(browser, server.url)
            await passkeySignUpAndBack(page, `init-passkey-${randomUUID()}@example.com`)
            await context.close()
          })
        }

        if (mode === "production") {
          it("builds without a warning from Latchkey's packages or plugin", () => {
            expect(latchkeyLines(buildLog, app)).toEqual([])
          })
        }
      })
    }
  })
}
