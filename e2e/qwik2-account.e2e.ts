/**
 * The account page `npx latchkey init --methods password` writes for Qwik 1 (its password and
 * address forms), on the Qwik 2 quick start, as a production build: the page sits below the
 * plugin that declares `useSession`, and its actions answer with a result instead of redirecting.
 * Without JavaScript that answer was a 500 (see packages/qwik2/src/action-body.ts). With it, the
 * page needs one export more on Qwik 2 (`useSessionOfPage`, see below) for the client to re-fetch
 * the session after the sign-out.
 */
import { randomUUID } from "node:crypto"
import { mkdirSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import type { Browser } from "playwright-core"
import { afterAll, afterEach, beforeAll, expect, it } from "vitest"
import { type SmtpInbox, startSmtpInbox } from "../packages/core/test/authjs-adapters/smtp-inbox.js"
import { accountPage } from "../packages/qwik/bin/init/templates.mjs"
import { launch, open, pageErrors } from "./browser.js"
import {
  createApp,
  type FixtureApp,
  pglitePackage,
  type RunningApp,
  removeFixtures,
} from "./fixture-apps.js"
import { mailEnv, serveApp, signUpAndSignIn } from "./quickstart-flows.js"
import { qwik2 } from "./qwik2-apps.js"

const SETUP_TIMEOUT = 300_000

let browser: Browser
let inbox: SmtpInbox
let app: FixtureApp
let server: RunningApp

beforeAll(async () => {
  ;[browser, inbox] = await Promise.all([launch(), startSmtpInbox()])
  const extras = ["@latchkey/adapter-postgres", pglitePackage()]
  app = await createApp("account-qwik2", ["quickstart", "account-page"], extras, qwik2)
  mkdirSync(join(app.dir, ".data"), { recursive: true })
  mkdirSync(join(app.dir, "src/routes/account"), { recursive: true })
  writeFileSync(join(app.dir, "src/routes/account/index.tsx"), qwik2AccountPage())
  server = await serveApp(app, "production", () => {}, "preview", { env: mailEnv(inbox) })
}, SETUP_TIMEOUT)

afterAll(async () => {
  await server?.stop()
  await browser?.close()
  await inbox?.close()
  if (!process.env.E2E_KEEP_FIXTURES) removeFixtures()
})

afterEach(() => {
  const expected = /^console: Failed to load resource: the server responded with a status of 4\d\d/
  expect(pageErrors.splice(0).filter((e) => !expected.test(e))).toEqual([])
})

/**
 * init's account page with its forms (which init writes for Qwik 1 only), in Qwik 2's names, and
 * one export more. Qwik 2 (2.0.0-beta.45) re-fetches after an action only the loaders its client
 * can place on a route; its Vite plugin places a plugin's loaders there only from
 * `export const { … } = routeAuth$(…)`, not from init's `export const { … } = auth`, and its
 * client drops, instead of re-fetching, an invalidated loader it cannot place. Exported by the
 * page, `useSession` is placed on the page.
 */
function qwik2AccountPage(): string {
  const project = {
    qwik: 1,
    binding: "@latchkey/qwik2",
    core: "@qwik.dev/core",
    router: "@qwik.dev/router",
    packageManager: "npm",
    packageJson: {},
  } as const
  const page: string = accountPage({ methods: ["password"], sessions: "pglite", project })
  const line = "export const useAccount = accountLoaders.useAccount\n"
  expect(page).toContain(line)
  return page.replace(line, `${line}export const useSessionOfPage = useSession\n`)
}

/** A new user, signed in, on the account page. */
async function onAccountPage(javaScriptEnabled: boolean) {
  const user = { email: `acct-${randomUUID()}@example.com`, password: "a long new password" }
  const { context, page } = await open(browser, server.url, { javaScriptEnabled })
  await signUpAndSignIn(page, inbox, user, "/")
  await page.goto("/account/")
  await page.getByText(`Signed in as ${user.email}`).waitFor()
  const passwordForm = page.locator("form", {
    has: page.locator("button:has-text('Change password')"),
  })
  return { user, context, page, passwordForm }
}

it("answers a refused password change on the page, without JavaScript", async () => {
  const { user, context, page, passwordForm: form } = await onAccountPage(false)
  await form.locator('input[name="currentPassword"]').fill("not the password at all")
  await form.locator('input[name="password"]').fill("another long password")
  const [response] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === "POST"),
    form.locator("button").click(),
  ])
  // The core's refusal of a wrong current password, shown on the page (no longer a 500).
  expect(response.status()).toBe(403)
  await page.getByRole("alert").waitFor()
  await page.getByText(`Signed in as ${user.email}`).waitFor()
  await context.close()
})

it("shows the page signed out after its sign-out, with JavaScript", async () => {
  const { context, page } = await onAccountPage(true)
  await page.click("button:has-text('Sign out')")
  await page.getByText("Not signed in.").waitFor()
  await context.close()
})

it("changes the password and re-fetches the account, with JavaScript", async () => {
  const { user, context, page, passwordForm: form } = await onAccountPage(true)
  const loaders: string[] = []
  page.on("response", (r) => {
    if (/\/q-loader-/.test(r.url())) loaders.push(`${r.status()} ${new URL(r.url()).pathname}`)
  })
  await form.locator('input[name="currentPassword"]').fill(user.password)
  await form.locator('input[name="password"]').fill("another long password")
  await form.locator("button").click()
  await page.getByText("Password changed.").waitFor()
  await page.getByText(`Signed in as ${user.email}`).waitFor()
  await expect.poll(() => loaders.length).toBeGreaterThan(0)
  expect(loaders.filter((line) => !line.startsWith("200 "))).toEqual([])
  await context.close()
})
