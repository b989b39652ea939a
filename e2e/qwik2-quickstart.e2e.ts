/**
 * The README's quick start on Qwik 2: Qwik 2's empty starter, the quick start's files moved over
 * as the "From Qwik 1" note says (import names swapped), `@latchkey/qwik2` installed from an
 * `npm pack` tarball, mail to a real SMTP server on loopback. Driven in Chromium under `vite dev`
 * and as a production build, with JavaScript on and off: sign up on the built-in pages, confirm
 * the mailed link, sign in and out, a wrong password. Qwik 2 behaves differently from Qwik City 1 in ways a binding must
 * handle (strict loaders, `goto()` to the current page doing nothing, per-loader JSON answers),
 * so the session is checked on the page right after each sign-in and sign-out.
 */
import { randomUUID } from "node:crypto"
import { mkdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import type { Browser } from "playwright-core"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { type SmtpInbox, startSmtpInbox } from "../packages/core/test/authjs-adapters/smtp-inbox.js"
import { launch, open, pageErrors } from "./browser.js"
import {
  createApp,
  type FixtureApp,
  pglitePackage,
  type RunningApp,
  removeFixtures,
  typeCheck,
} from "./fixture-apps.js"
import {
  expectServerOnly,
  latchkeyLines,
  mailEnv,
  passwordAccount,
  QWIK2_DEV_CONSOLE,
  serveApp,
  signUpAndSignIn,
} from "./quickstart-flows.js"
import { qwik2 } from "./qwik2-apps.js"

const SETUP_TIMEOUT = 300_000

let browser: Browser
let inbox: SmtpInbox
let app: FixtureApp
const servers: Partial<Record<"dev" | "production", RunningApp>> = {}
let buildLog = ""
/** Console errors the mode being tested expects (`QWIK2_DEV_CONSOLE`). */
let expectedConsole: RegExp | undefined

beforeAll(async () => {
  ;[browser, inbox] = await Promise.all([launch(), startSmtpInbox()])
  const extras = ["@latchkey/adapter-postgres", pglitePackage()]
  // `action-result`: one page more, below `/`, whose action answers with a result.
  app = await createApp("quickstart-qwik2", ["quickstart", "action-result"], extras, qwik2)
  // The quick start's one shell step for PGlite.
  mkdirSync(join(app.dir, ".data"), { recursive: true })
}, SETUP_TIMEOUT)

afterAll(async () => {
  await Promise.all(Object.values(servers).map((server) => server.stop()))
  await browser?.close()
  await inbox?.close()
  if (!process.env.E2E_KEEP_FIXTURES) removeFixtures()
})

afterEach(() => {
  const errors = pageErrors.splice(0)
  expect(errors.filter((e) => !expectedConsole?.test(e))).toEqual([])
})

it("type-checks as written (tsc --noEmit)", async () => {
  await expect(typeCheck(app)).resolves.toBeUndefined()
}, 120_000)

for (const mode of ["dev", "production"] as const) {
  describe(`the quick start on Qwik 2, ${mode}`, () => {
    beforeAll(async () => {
      const onBuild = (log: string) => {
        buildLog = log
      }
      servers[mode] = await serveApp(app, mode, onBuild, "preview", { env: mailEnv(inbox) })
      if (mode === "dev") expectedConsole = QWIK2_DEV_CONSOLE
    }, SETUP_TIMEOUT)
    afterAll(async () => {
      expectedConsole = undefined
      await servers[mode]?.stop()
    })

    for (const js of [true, false]) {
      // Sign-out on the page its form is on: with JavaScript on a production build the action
      // returns without a redirect (a `goto()` to the same path re-runs no loader) and the
      // session is re-fetched; the dev server ends it in a page load (src/redirect.ts).
      it(`signs up, confirms the mailed link, signs in and out, refuses a wrong password, ${js ? "with" : "without"} JavaScript`, () =>
        passwordAccount(browser, servers[mode]!, inbox, { js, home: "/" }))
    }

    // Qwik 2 runs `useSession` (declared at `/`) for `/notes/` on a request it rebuilds from the
    // action's POST, body included: the plugin keeps that body unread (src/action-body.ts).
    it("renders an action's result for a form POST without JavaScript, the session loader included", async () => {
      const { context, page } = await open(browser, servers[mode]!.url, {
        javaScriptEnabled: false,
      })
      await page.goto("/notes/")
      await page.getByText("Not signed in").waitFor()
      await page.fill('input[name="note"]', "kept")
      const [response] = await Promise.all([
        page.waitForResponse((r) => r.request().method() === "POST"),
        page.click("button:has-text('Save')"),
      ])
      expect(response.status()).toBe(200)
      await page.getByRole("status").filter({ hasText: "Saved: kept" }).waitFor()
      await page.getByText("Not signed in").waitFor()
      await context.close()
    })

    // The dev server ends a sign-out in a page load (src/redirect.ts); on a production build the
    // action returns to the page it came from and lists `useSession` for the client to re-fetch,
    // which Qwik 2 declares at `/` (the plugin) while the page is `/notes/`.
    it.runIf(mode === "production")(
      "re-fetches the session after a sign-out on a page below / with JavaScript",
      async () => {
        const { context, page } = await open(browser, servers[mode]!.url)
        const user = { email: `notes-${randomUUID()}@example.com`, password: "a long new password" }
        await signUpAndSignIn(page, inbox, user, "/")
        await page.goto("/notes/")
        await page.getByText(`Signed in as ${user.email}`).waitFor()
        await page.click("button:has-text('Sign out')")
        await page.getByText("Not signed in").waitFor()
        expect(new URL(page.url()).pathname).toBe("/notes/")
        await context.close()
      },
    )

    it("answers a cross-site form POST to /auth/* with Qwik 2's own 403, before onRequest (README)", async () => {
      // What breaks `response_mode=form_post` callbacks on Qwik 2 unless `checkOrigin: false`.
      const response = await fetch(`${servers[mode]!.url}/auth/callback/password`, {
        method: "POST",
        headers: {
          origin: "https://appleid.apple.com",
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({ email: "ada@example.com", password: "a long new password" }),
        redirect: "manual",
      })
      expect(response.status).toBe(403)
      expect(await response.text()).toContain("CSRF check failed")
    })

    // Under `vite dev` Qwik 2's client re-fetches no loader after an action its validation
    // refused (it loads zod's error module and stops there), so this runs on the production build.
    it.runIf(mode === "production")(
      "re-fetches the session after an action as private, uncacheable JSON without the token",
      async () => {
        const { context, page } = await open(browser, servers[mode]!.url)
        const user = {
          email: `loader-${randomUUID()}@example.com`,
          password: "a long new password",
        }
        await signUpAndSignIn(page, inbox, user, "/")
        const token = (await context.cookies()).find((c) => c.name === "authjs.session-token")!
        // A sign-out the action's validation refuses (an empty `redirectTo`) ends without a
        // navigation: Qwik 2 then re-fetches only the loaders the action lists, `useSession` here.
        await page.evaluate(() => {
          const field = Object.assign(document.createElement("input"), { name: "redirectTo" })
          Object.assign(field, { type: "hidden", value: "" })
          document.querySelector("form")!.append(field)
        })
        const [loader] = await Promise.all([
          page.waitForResponse((response) => /\/q-loader-[^/]+\.json$/.test(response.url())),
          page.click("button"),
        ])
        const cacheControl = loader.headers()["cache-control"] ?? ""
        expect(cacheControl.split(/,\s*/).sort()).toEqual(["no-store", "private"])
        expect(loader.headers().etag).toBeUndefined()
        const body = await loader.text()
        expect(body).toContain(user.email)
        expect(body).not.toContain(token.value)
        await page.getByText(`Signed in as ${user.email}`).waitFor()
        await context.close()
      },
    )

    // The actions' schemas are no segments of their own (src/input-validation.ts): the server
    // must still apply them before the action body runs.
    it("refuses action input its schema rejects with a 400, before the action runs", async () => {
      const { context, page } = await open(browser, servers[mode]!.url)
      const user = { email: `schema-${randomUUID()}@example.com`, password: "a long new password" }
      await signUpAndSignIn(page, inbox, user, "/")
      const action = await page
        .locator("form:has(button:has-text('Sign out'))")
        .getAttribute("action")
      const response = await page.request.post(new URL(action!, page.url()).href, {
        form: { everywhere: "maybe" },
        headers: { origin: new URL(servers[mode]!.url).origin },
        maxRedirects: 0,
      })
      expect(response.status()).toBe(400)
      await page.reload()
      await page.getByText(`Signed in as ${user.email}`).waitFor()
      await context.close()
    })

    if (mode === "production") {
      it("builds without a warning from Latchkey's packages", () => {
        expect(latchkeyLines(buildLog, app)).toEqual([])
      })

      it("writes none of the auth config or database code to the client build", () => {
        expectServerOnly(app, /@latchkey\/core|loadSessionValue|getSession\(/)
      })

      // Qwik 2 maps every symbol of the client manifest again on each render; validators never
      // run in the browser, so the binding's schemas are not among them.
      it("adds no validator segment to the client manifest", () => {
        const manifest = JSON.parse(readFileSync(join(app.dir, "dist", "q-manifest.json"), "utf8"))
        const symbols = Object.values(manifest.symbols as Record<string, { ctxName: string }>)
        expect(symbols.filter((symbol) => symbol.ctxName === "zod$")).toEqual([])
        expect(symbols.some((symbol) => symbol.ctxName === "globalAction$")).toBe(true)
      })
    }
  })
}
