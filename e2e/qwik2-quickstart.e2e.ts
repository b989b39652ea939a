/**
 * The README's quick start on Qwik 2: Qwik 2's empty starter, the quick start's files moved over
 * as the "From Qwik 1" note says (import names swapped), `@latchkey/qwik2` installed from an
 * `npm pack` tarball. Driven in Chromium under `vite dev` and as a production build, with
 * JavaScript on and off. Qwik 2 behaves differently from Qwik City 1 in ways a binding must
 * handle (strict loaders, `goto()` to the current page doing nothing, per-loader JSON answers),
 * so the session is checked on the page right after each sign-in and sign-out.
 */
import type { Browser } from "playwright-core"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { launch, open, pageErrors } from "./browser.js"
import {
  clientFilesMatching,
  createApp,
  type FixtureApp,
  type RunningApp,
  removeFixtures,
  serverFilesMatching,
  typeCheck,
} from "./fixture-apps.js"
import {
  ADA,
  serveApp,
  signInReloadSignOut,
  signInWith,
  wrongPasswordShown,
} from "./quickstart-flows.js"
import { qwik2 } from "./qwik2-apps.js"

const SETUP_TIMEOUT = 300_000

let browser: Browser
let app: FixtureApp
const servers: Partial<Record<"dev" | "production", RunningApp>> = {}
let buildLog = ""

beforeAll(async () => {
  browser = await launch()
  app = await createApp("quickstart-qwik2", ["quickstart"], [], qwik2)
}, SETUP_TIMEOUT)

afterAll(async () => {
  await Promise.all(Object.values(servers).map((server) => server.stop()))
  await browser?.close()
  if (!process.env.E2E_KEEP_FIXTURES) removeFixtures()
})

afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([])
})

it("type-checks as written (tsc --noEmit)", async () => {
  await expect(typeCheck(app)).resolves.toBeUndefined()
}, 120_000)

for (const mode of ["dev", "production"] as const) {
  describe(`the quick start on Qwik 2, ${mode}`, () => {
    beforeAll(async () => {
      servers[mode] = await serveApp(app, mode, (log) => {
        buildLog = log
      })
    }, SETUP_TIMEOUT)
    afterAll(async () => {
      await servers[mode]?.stop()
    })

    for (const js of [true, false]) {
      const how = js ? "with JavaScript" : "without JavaScript"

      // The session shows on the page the form was on, where Qwik 2 re-runs no loader for a
      // `goto()` to the same path: the binding ends sign-in and sign-out in a page load.
      it(`signs in, keeps the session across a reload, and signs out, ${how}`, () =>
        signInReloadSignOut(browser, servers[mode]!.url, js))

      it(`refuses a wrong password visibly, ${how}`, () =>
        wrongPasswordShown(browser, servers[mode]!, js))
    }

    it("answers a cross-site form POST to /auth/* with Qwik 2's own 403, before onRequest (README)", async () => {
      // What breaks `response_mode=form_post` callbacks on Qwik 2 unless `checkOrigin: false`.
      const response = await fetch(`${servers[mode]!.url}/auth/callback/credentials`, {
        method: "POST",
        headers: {
          origin: "https://appleid.apple.com",
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({ email: ADA.email, password: ADA.password }),
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
        await page.goto("/")
        await signInWith(page, ADA)
        await page.getByText(`Signed in as ${ADA.email}`).waitFor()
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
        expect(body).toContain(ADA.email)
        expect(body).not.toContain(token.value)
        await page.getByText(`Signed in as ${ADA.email}`).waitFor()
        await context.close()
      },
    )

    if (mode === "production") {
      it("builds without a warning from Latchkey's packages", () => {
        // The fixture's own path (under a `latchkey-fixtures-*` directory) is no warning.
        const lines = buildLog.replaceAll(app.dir, "<app>").split("\n")
        expect(lines.filter((line) => /latchkey/i.test(line))).toEqual([])
      })

      it("writes none of the auth config or users module to the client build", () => {
        const markers = [/ada@example\.com/, /PBKDF2/, /correct horse battery staple/]
        for (const marker of markers) {
          expect(serverFilesMatching(app, marker), String(marker)).not.toEqual([])
          expect(clientFilesMatching(app, marker), String(marker)).toEqual([])
        }
        expect(clientFilesMatching(app, /@latchkey\/core|loadSessionValue|getSession\(/)).toEqual(
          [],
        )
      })
    }
  })
}
