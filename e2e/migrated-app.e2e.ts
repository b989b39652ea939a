/**
 * An `@auth/qwik` app moved over by swapping imports (`fixtures/migrated`): written the way
 * `@auth/qwik`'s documentation writes it — `signIn.submit({ providerId })` from `onClick$`, a
 * `<Form action={signIn}>`, `useSession` in a layout, a route guarded by
 * `sharedMap.get("session")` — and signed in through a real OpenID Provider on loopback, with
 * JavaScript on and off, under `vite dev` and as a production build. The one line the migration
 * guide adds (`npx latchkey vite`) keeps the config out of the client build.
 */
import type { Browser, Page } from "playwright-core"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
// @ts-expect-error: a plain ES module of the demo, shared with these tests
import { startLocalOidc } from "../examples/qwik-app/scripts/local-oidc.mjs"
import { launch, open, pageErrors } from "./browser.js"
import {
  addVitePlugin,
  buildProduction,
  clientFilesMatching,
  createApp,
  type FixtureApp,
  newSecret,
  type RunningApp,
  removeFixtures,
  reservePort,
  serverFilesMatching,
  startDev,
  startProduction,
  typeCheck,
  writeDotEnv,
} from "./fixture-apps.js"
import { GRACE, loginAtProvider, submitCredentials } from "./migrated-steps.js"

const SETUP_TIMEOUT = 240_000

let browser: Browser
let app: FixtureApp
let oidc: { issuer: string; clientId: string; clientSecret: string; close(): Promise<void> }
const ports = { dev: 0, production: 0 }
const servers: Partial<Record<keyof typeof ports, RunningApp>> = {}

beforeAll(async () => {
  browser = await launch()
  ports.dev = await reservePort()
  ports.production = await reservePort()
  oidc = await startLocalOidc({
    redirectUris: Object.values(ports).map((p) => `http://127.0.0.1:${p}/auth/callback/local`),
  })
  app = await createApp("migrated", ["migrated"])
  await addVitePlugin(app) // the migration guide's step 1
}, SETUP_TIMEOUT)

afterAll(async () => {
  await Promise.all(Object.values(servers).map((server) => server?.stop()))
  await oidc?.close()
  await browser?.close()
  if (!process.env.E2E_KEEP_FIXTURES) removeFixtures()
})

afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([])
})

async function envFor(port: number) {
  return {
    AUTH_SECRET: await newSecret(app),
    AUTH_URL: `http://127.0.0.1:${port}`,
    AUTH_LOCAL_ID: oidc.clientId,
    AUTH_LOCAL_SECRET: oidc.clientSecret,
    AUTH_LOCAL_ISSUER: oidc.issuer,
  }
}

async function signedInAs(page: Page): Promise<string | null> {
  return page.textContent('[data-testid="user"]')
}

it("type-checks as written (tsc --noEmit)", async () => {
  await expect(typeCheck(app)).resolves.toBeUndefined()
}, 120_000)

for (const mode of ["dev", "production"] as const) {
  describe(`a migrated @auth/qwik app, ${mode}`, () => {
    let base = ""
    beforeAll(async () => {
      const env = await envFor(ports[mode])
      writeDotEnv(app, env)
      if (mode === "dev") {
        servers.dev = await startDev(app, ports.dev)
      } else {
        await buildProduction(app)
        servers.production = await startProduction(app, ports.production, env)
      }
      base = servers[mode]!.url
    }, SETUP_TIMEOUT)
    afterAll(async () => {
      await servers[mode]?.stop()
    })

    it("signs in with signIn.submit({ providerId }) from onClick$, through the provider", async () => {
      const { context, page } = await open(browser, base)
      await page.goto("/")
      await Promise.all([
        page.waitForURL((url) => url.origin === oidc.issuer),
        page.click('[data-testid="submit-local"]'),
      ])
      await loginAtProvider(page, oidc.issuer, base, `submit-${mode}@example.org`)
      expect(await page.textContent("h1")).toBe("Protected: Grace Hopper")
      expect(await signedInAs(page)).toBe(`submit-${mode}@example.org`)
      await context.close()
    })

    if (mode === "production") {
      it("writes none of the config to the client build", async () => {
        // `npx latchkey vite` added latchkey() to vite.config.ts: QwikAuth$ is stripped from
        // client builds like routeAuth$ (migrated-adapter.e2e.ts shows the same with a database).
        expect(serverFilesMatching(app, /hopper-1906/)).not.toEqual([])
        expect(clientFilesMatching(app, /hopper-1906/)).toEqual([])
        const requested: string[] = []
        const { context, page } = await open(browser, base)
        page.on("request", (request) => requested.push(new URL(request.url()).pathname))
        await page.goto("/")
        await submitCredentials(page, GRACE.password, `${base}/protected/`)
        await page.getByText("Protected: Grace Hopper").waitFor()
        await page.click("text=Home")
        await page.getByText("Sign in with Local IdP (form)").waitFor()
        expect(requested.some((path) => path.startsWith("/build/"))).toBe(true)
        expect(servers.production?.output()).not.toContain("vite-plugin-missing")
        await context.close()
      })
    }

    for (const js of [true, false]) {
      const how = js ? "with JavaScript" : "without JavaScript"

      it(`signs in with a <Form action={signIn}> to the provider, ${how}`, async () => {
        const { context, page } = await open(browser, base, { javaScriptEnabled: js })
        await page.goto("/")
        await Promise.all([
          page.waitForURL((url) => url.origin === oidc.issuer),
          page.click('[data-testid="form-local"]'),
        ])
        await loginAtProvider(page, oidc.issuer, base, `form-${mode}-${js}@example.org`)
        expect(await signedInAs(page)).toBe(`form-${mode}-${js}@example.org`)
        await context.close()
      })

      it(`signs in with the credentials form and out again, ${how}`, async () => {
        const { context, page } = await open(browser, base, { javaScriptEnabled: js })
        await page.goto("/")
        await submitCredentials(page, GRACE.password, `${base}/protected/`)
        // With JavaScript the URL changes first and the page renders after (client navigation).
        await page.getByText("Protected: Grace Hopper").waitFor()
        expect(await signedInAs(page)).toBe(GRACE.email)

        await Promise.all([page.waitForURL(`${base}/`), page.click("text=Sign Out")])
        await page.getByText("signed out").waitFor()
        await page.goto("/protected/")
        expect(new URL(page.url()).pathname).toBe("/auth/signin")
        await context.close()
      })

      it(`shows a wrong password on the sign-in page, ${how}`, async () => {
        const { context, page } = await open(browser, base, { javaScriptEnabled: js })
        await page.goto("/")
        await submitCredentials(page, "not-her-password", (url) => url.pathname === "/auth/signin")
        expect(new URL(page.url()).searchParams.get("error")).toBe("CredentialsSignin")
        expect(await page.textContent("body")).toContain("Sign in failed")
        await context.close()
      })

      it(`sends a signed-out visitor of the protected route to the sign-in page, ${how}`, async () => {
        const { context, page } = await open(browser, base, { javaScriptEnabled: js })
        await page.goto("/protected/")
        const url = new URL(page.url())
        expect(url.pathname).toBe("/auth/signin")
        expect(url.searchParams.get("callbackUrl")).toBe("/protected/")
        expect(await page.title()).toBe("Sign In")
        await context.close()
      })
    }
  })
}
