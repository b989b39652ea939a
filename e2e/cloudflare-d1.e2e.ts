/**
 * Latchkey on Cloudflare Pages with D1 and mail over HTTP, as an app sets it up: Qwik's starter
 * with Cloudflare's adapter, the Drizzle adapter on D1 (`drizzle-orm/d1`) and Resend's API
 * (`resendMail`) for the mails (`fixtures/cloudflare-d1`). The schema file comes from `npx
 * latchkey generate --drizzle sqlite`, the migration from `npx drizzle-kit generate`, applied by
 * `wrangler d1 migrations apply --local`; the production build runs in `wrangler pages dev`
 * (workerd, no compatibility flags, a local D1), mail going to a Resend-compatible server on
 * loopback. Driven in Chromium: sign-up, the mail, sign-in, a wrong password (JavaScript on and
 * off), a passkey added on the account page and signed in with, and the account page without
 * JavaScript (the passkey listed and renamed, this device listed).
 */
import { execFile } from "node:child_process"
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs"
import { join } from "node:path"
import { promisify } from "node:util"
import type { Browser } from "playwright-core"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import {
  type ResendStandIn,
  startResendStandIn,
} from "../packages/core/test/email/resend-server.js"
import { launch, open, pageErrors, sessionCookie } from "./browser.js"
import {
  createApp,
  type FixtureApp,
  latchkeyCommand,
  type RunningApp,
  removeFixtures,
  reservePort,
} from "./fixture-apps.js"
import {
  type Mailbox,
  passwordAccount,
  signInOnBuiltInPage,
  signOut,
  signUpAndSignIn,
} from "./quickstart-flows.js"
import {
  buildClient,
  buildServer,
  installRuntimeTools,
  resendInbox,
  startPagesDev,
  wrangler,
} from "./runtimes.js"
import { addVirtualAuthenticator, press } from "./webauthn.js"

const run = promisify(execFile)
const SETUP_TIMEOUT = 600_000
const RESEND_KEY = "re_fixture_0123456789abcdefghijklmnop"

let browser: Browser
let resend: ResendStandIn
let app: FixtureApp
let server: RunningApp
let generated = ""

/** The versions this repository tests with: the app installs the same from the registry. */
const version = (name: string) =>
  JSON.parse(
    readFileSync(join(import.meta.dirname, `../node_modules/${name}/package.json`), "utf8"),
  ).version as string

const mailbox = (): Mailbox => resendInbox(resend.mails)

/** A command of the app's own toolchain (`npx`), in the app. */
async function inApp(command: string, args: string[], env: Record<string, string> = {}) {
  const { NODE_ENV: _, VITEST: __, ...rest } = process.env
  return await run(command, args, {
    cwd: app.dir,
    env: { ...rest, ...env },
    maxBuffer: 16 * 1024 * 1024,
  })
}

beforeAll(async () => {
  ;[browser, resend] = await Promise.all([launch(), startResendStandIn(RESEND_KEY)])
  ;[app] = await Promise.all([
    createApp(
      "cloudflare-d1",
      ["runtime-adapters", "cloudflare-d1"],
      [
        "@latchkey/adapter-drizzle",
        `drizzle-orm@${version("drizzle-orm")}`,
        `drizzle-kit@${version("drizzle-kit")}`,
      ],
    ),
    installRuntimeTools(),
  ])
  generated = await latchkeyCommand(app, ["generate", "--drizzle", "sqlite"])
  await inApp("npx", ["--no-install", "drizzle-kit", "generate"])
  await wrangler(app, ["d1", "migrations", "apply", "auth", "--local"])
  await buildClient(app)
  await buildServer(app, "cloudflare-pages")
  const port = await reservePort()
  // `localhost`, not 127.0.0.1: an IP address cannot be a passkey's relying party.
  const url = `http://localhost:${port}`
  const vars = {
    AUTH_SECRET: (await latchkeyCommand(app, ["secret"])).trim(),
    AUTH_URL: url,
    AUTH_RESEND_KEY: RESEND_KEY,
    RESEND_BASE_URL: resend.baseUrl,
    EMAIL_FROM: "Fixture <login@example.com>",
  }
  writeFileSync(
    join(app.dir, ".dev.vars"),
    Object.entries(vars)
      .map(([k, v]) => `${k}=${v}\n`)
      .join(""),
  )
  server = await startPagesDev(app, port)
}, SETUP_TIMEOUT)

afterAll(async () => {
  await server?.stop()
  await browser?.close()
  await resend?.close()
  if (!process.env.E2E_KEEP_FIXTURES) removeFixtures()
})

afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([])
})

describe("the schema: latchkey generate, drizzle-kit, wrangler's D1 migrations", () => {
  it("wrote the tables of the config's features and one migration that D1 applied", async () => {
    expect(generated).toContain(
      "Wrote src/db/auth-schema.ts (sqlite; features: passkeys, password, revocation)",
    )
    const migrations = readdirSync(join(app.dir, "migrations")).filter((f) => f.endsWith(".sql"))
    expect(migrations).toHaveLength(1)
    const ddl = readFileSync(join(app.dir, "migrations", migrations[0]!), "utf8")
    for (const table of [
      "user",
      "account",
      "session",
      "authenticator",
      "passwordHash",
      "revokedSession",
    ]) {
      expect(ddl).toContain(`CREATE TABLE \`${table}\``)
    }
    expect(ddl).not.toContain("twoFactor")
    expect(existsSync(join(app.dir, ".wrangler/state/v3/d1"))).toBe(true)
  })
})

describe("Cloudflare Pages (wrangler pages dev), D1 and Resend", () => {
  for (const js of [true, false]) {
    it(`signs up, confirms the mailed link, signs in and out, refuses a wrong password, ${js ? "with" : "without"} JavaScript`, () =>
      passwordAccount(browser, server, mailbox(), { js, home: "/" }))
  }

  it("adds a passkey on the account page, signs in with it; without JavaScript the account page lists it, renames it, and lists this device", async () => {
    const user = {
      email: `passkey-${crypto.randomUUID()}@example.com`,
      password: "a long new password",
    }
    const withJs = await open(browser, server.url)
    await addVirtualAuthenticator(withJs.page)
    await signUpAndSignIn(withJs.page, mailbox(), user, "/")
    await press(withJs.page, '[data-testid="passkey-add"]')
    await withJs.page.getByTestId("passkey-name").waitFor()
    expect(await withJs.page.getByTestId("passkey-name").textContent()).toBe("Unnamed")
    // Stored in D1 as the session cookie's hash, never the cookie itself.
    const cookie = await sessionCookie(withJs.context)
    const stored = await wrangler(app, [
      "d1",
      "execute",
      "auth",
      "--local",
      "--json",
      "--command",
      'SELECT "sessionToken" FROM session',
    ])
    expect(stored.stdout).toMatch(/"sessionToken": "[0-9a-f]{64}"/)
    expect(stored.stdout).not.toContain(cookie!.value)

    await signOut(withJs.page)
    await press(withJs.page, '[data-testid="passkey-signin"]')
    await withJs.page.getByText(`Signed in as ${user.email}`).waitFor()
    await withJs.context.close()

    const noJs = await open(browser, server.url, { javaScriptEnabled: false })
    await noJs.page.goto("/auth/signin?callbackUrl=%2F")
    await signInOnBuiltInPage(noJs.page, user)
    await noJs.page.getByText(`Signed in as ${user.email}`).waitFor()
    expect(await noJs.page.getByTestId("device").allTextContents()).toContainEqual(
      expect.stringContaining("(this device)"),
    )
    await noJs.page.fill('[data-testid="passkey-rename-input"]', "Work laptop")
    await Promise.all([
      noJs.page.waitForResponse((r) => r.request().method() === "POST"),
      noJs.page.click("button:has-text('Rename')"),
    ])
    await noJs.page.goto("/")
    expect(await noJs.page.getByTestId("passkey-name").textContent()).toBe("Work laptop")
    await noJs.context.close()
    expect(server.output()).not.toMatch(/is not defined|error=Configuration|AdapterError/)
  })
})
