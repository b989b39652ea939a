/**
 * The quick start's browser flows, shared by its Qwik 1 and Qwik 2 suites: the same app (the
 * README's files), the same user, the same expectations, whichever Qwik it runs on.
 */
import type { Browser, Page } from "playwright-core"
import { expect } from "vitest"
import { open } from "./browser.js"
import {
  addNodeServer,
  buildProduction,
  type FixtureApp,
  freePort,
  newSecret,
  type RunningApp,
  startDev,
  startNodeServer,
  startProduction,
  writeDotEnv,
} from "./fixture-apps.js"

/** The quick start's demo user (`fixtures/quickstart/src/lib/users.ts`). */
export const ADA = { email: "ada@example.com", password: "correct horse battery staple" }

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
): Promise<RunningApp> {
  const port = await freePort()
  const env = { AUTH_SECRET: await newSecret(app), AUTH_URL: `http://127.0.0.1:${port}` }
  writeDotEnv(app, env)
  if (mode === "dev") return startDev(app, port)
  if (production === "node-server") await addNodeServer(app)
  onBuild(await buildProduction(app))
  if (production === "node-server") return startNodeServer(app, port, env)
  return startProduction(app, port, env)
}

/** Fill the quick start's form and submit it. */
export async function signInWith(page: Page, credentials: { email: string; password: string }) {
  await page.fill('input[name="options.email"]', credentials.email)
  await page.fill('input[name="options.password"]', credentials.password)
  await Promise.all([page.waitForLoadState(), page.click("button")])
}

/** Sign in, see the session on the same page and after a reload, sign out. */
export async function signInReloadSignOut(browser: Browser, url: string, js: boolean) {
  const { context, page } = await open(browser, url, { javaScriptEnabled: js })
  await page.goto("/")
  await signInWith(page, ADA)
  await page.getByText(`Signed in as ${ADA.email}`).waitFor()
  const cookies = await context.cookies()
  const session = cookies.find((c) => c.name === "authjs.session-token")
  expect(session?.httpOnly).toBe(true)
  // The token stays in its HttpOnly cookie: never in the page.
  expect(await page.content()).not.toContain(session!.value)

  await page.reload()
  await page.getByText(`Signed in as ${ADA.email}`).waitFor()

  await Promise.all([page.waitForLoadState(), page.click("button")])
  await page.getByRole("button", { name: "Sign in" }).waitFor()
  const after = await context.cookies()
  expect(after.find((c) => c.name === "authjs.session-token")).toBeUndefined()
  await context.close()
}

/**
 * A wrong password: the form shows the error, the URL carries it, no session cookie is set,
 * and the server logs it once (one `credentials-refused` line, not one per layer).
 */
export async function wrongPasswordShown(browser: Browser, server: RunningApp, js: boolean) {
  const refusals = () =>
    server
      .output()
      .split("\n")
      .filter((l) => l.includes("credentials-refused"))
  const before = refusals().length
  const { context, page } = await open(browser, server.url, { javaScriptEnabled: js })
  await page.goto("/")
  await signInWith(page, { email: ADA.email, password: "not the password" })
  const alert = page.getByRole("alert")
  await alert.waitFor()
  expect(await alert.textContent()).toContain("Sign-in failed (CredentialsSignin)")
  expect(new URL(page.url()).searchParams.get("error")).toBe("CredentialsSignin")
  const cookies = await context.cookies()
  expect(cookies.find((c) => c.name === "authjs.session-token")).toBeUndefined()
  await context.close()
  // The line is written before the answer, but reaches this process through a pipe: wait for it.
  for (let i = 0; i < 50 && refusals().length === before; i++) await sleep(100)
  await sleep(300)
  expect(refusals().length - before).toBe(1)
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))
