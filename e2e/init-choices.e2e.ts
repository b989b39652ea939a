/**
 * Every choice of `npx latchkey init` that `init.e2e.ts` leaves out, on Qwik's empty starter v1
 * and v2 (one install each, from the packed tarballs): init runs again on the same app with
 * `--force` for each choice, and the app is served under `vite dev` (one production build per
 * starter) with what init's "Next steps" ask for, in Chromium:
 * - `--methods github,google,oidc --sessions jwt`: sign-in through a real OpenID Provider on
 *   loopback (the demo's `oidc-provider`) and out, with JavaScript on and off; GitHub's and
 *   Google's sign-in POST answers with a redirect to their authorize URL with state and PKCE
 *   (caught, never followed: the tests stay on loopback; Google's discovery document comes
 *   from `offline-providers.mjs`). The production build (Qwik 1's
 *   `npm run build`: type check and ESLint; Qwik 2: its type check) of that choice too.
 * - `--methods passkey,email,oidc --sessions postgres` (when DATABASE_URL is set): the magic
 *   link mailed to a real SMTP server, a passkey (Chromium's virtual authenticator), the OpenID
 *   Provider, every account in a fresh PostgreSQL schema.
 */
import { randomUUID } from "node:crypto"
import { fileURLToPath, pathToFileURL } from "node:url"
import pg from "pg"
import type { APIResponse, Browser, Page } from "playwright-core"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { startLocalOidc } from "../examples/qwik-app/scripts/local-oidc.mjs"
import { open, pageErrors } from "./browser.js"
import {
  buildProduction,
  createApp,
  type FixtureApp,
  type QwikVersion,
  qwik1,
  type RunningApp,
  reservePort,
  startDev,
  startProduction,
  typeCheck,
  writeDotEnv,
} from "./fixture-apps.js"
import {
  appEnv,
  init,
  passkeySignUpAndBack,
  SIGN_IN,
  sharedBrowserAndInbox,
  signedInAs,
  signInWithOidc,
} from "./init-apps.js"
import type { SmtpMailbox } from "./password-flows.js"
import { latchkeyLines, QWIK2_DEV_CONSOLE, signOut } from "./quickstart-flows.js"
import { qwik2 } from "./qwik2-apps.js"

const SETUP_TIMEOUT = 300_000
const databaseUrl = process.env.DATABASE_URL

const starters: { name: string; qwik: QwikVersion }[] = [
  { name: "qwik1", qwik: qwik1 },
  { name: "qwik2", qwik: qwik2 },
]

/** GitHub's and Google's app credentials: sent in the authorize URL only, never used. */
const OAUTH_APPS = {
  AUTH_GITHUB_ID: "github-client-id",
  AUTH_GITHUB_SECRET: "github-client-secret",
  AUTH_GOOGLE_ID: "google-client-id.apps.googleusercontent.com",
  AUTH_GOOGLE_SECRET: "google-client-secret",
}

/** Where GitHub's and Google's sign-in send the browser (`providers/github.ts`, Google's discovery). */
const AUTHORIZE = {
  GitHub: {
    url: "https://github.com/login/oauth/authorize",
    id: "github",
    client: OAUTH_APPS.AUTH_GITHUB_ID,
  },
  Google: {
    url: "https://accounts.google.com/o/oauth2/v2/auth",
    id: "google",
    client: OAUTH_APPS.AUTH_GOOGLE_ID,
  },
} as const

const LOOPBACK = new Set(["localhost", "127.0.0.1"])

const offline = pathToFileURL(fileURLToPath(new URL("./offline-providers.mjs", import.meta.url)))

type LocalOidc = Awaited<ReturnType<typeof startLocalOidc>>

let browser: Browser
let inbox: SmtpMailbox

sharedBrowserAndInbox((b, i) => {
  browser = b
  inbox = i
})

/** Console errors the mode being tested expects (`QWIK2_DEV_CONSOLE`). */
let expectedConsole: RegExp | undefined

afterEach(() => {
  const errors = pageErrors.splice(0)
  expect(errors.filter((e) => !expectedConsole?.test(e))).toEqual([])
})

interface Served {
  server: RunningApp
  oidc: LocalOidc
  buildLog: string
}

/**
 * The app as init's "Next steps" say, at `localhost` (passkeys need a host name): `.env` with
 * the mail server, GitHub's and Google's credentials and the OpenID Provider's (a real one on
 * loopback, which knows this server's callback URL); `shell` is what the user exports
 * (`DATABASE_URL`). Production: the build, served by `vite preview` with the same variables.
 */
async function serve(
  app: FixtureApp,
  mode: "dev" | "production",
  shell: Record<string, string> = {},
): Promise<Served> {
  const port = await reservePort()
  const url = `http://localhost:${port}`
  const oidc = await startLocalOidc({ redirectUris: [`${url}/auth/callback/oidc`] })
  const env = {
    ...appEnv(app, inbox),
    ...OAUTH_APPS,
    AUTH_OIDC_ISSUER: oidc.issuer,
    AUTH_OIDC_ID: oidc.clientId,
    AUTH_OIDC_SECRET: oidc.clientSecret,
    AUTH_URL: url,
  }
  writeDotEnv(app, env)
  const nodeOptions = `${process.env.NODE_OPTIONS ?? ""} --import=${offline}`.trim()
  const processEnv = { ...shell, NODE_OPTIONS: nodeOptions }
  try {
    if (mode === "dev") {
      return { server: { ...(await startDev(app, port, processEnv)), url }, oidc, buildLog: "" }
    }
    const buildLog = await buildProduction(app)
    const server = await startProduction(app, port, { ...env, ...processEnv })
    return { server: { ...server, url }, oidc, buildLog }
  } catch (error) {
    await oidc.close()
    throw error
  }
}

async function oidcRoundTrip(served: Served, js: boolean): Promise<void> {
  const { context, page } = await open(browser, served.server.url, { javaScriptEnabled: js })
  const email = `init-oidc-${randomUUID()}@example.org`
  await signInWithOidc(page, served.oidc, email)
  await page.reload()
  await page.getByText(`Signed in as ${email}`).waitFor()
  await signOut(page)
  await context.close()
}

/**
 * The built-in page's button for `name`: the app's answer to the sign-in POST, caught before the
 * browser follows it to the provider (a test never leaves loopback: any request that would is
 * aborted). Resolves to where it redirects and the names of the cookies it sets.
 */
async function signInPost(
  page: Page,
  name: keyof typeof AUTHORIZE,
): Promise<{ location: URL; cookies: string[] }> {
  const context = page.context()
  await context.route(
    (url) => !LOOPBACK.has(url.hostname),
    (route) => route.abort(),
  )
  let answer: APIResponse | undefined
  const post = `/auth/signin/${AUTHORIZE[name].id}`
  await page.route(
    (url) => url.pathname === post,
    async (route) => {
      answer = await route.fetch({ maxRedirects: 0 })
      await route.fulfill({ contentType: "text/html", body: "<p>on the way to the provider</p>" })
    },
  )
  await page.goto(SIGN_IN)
  await Promise.all([
    page.waitForURL((url) => url.pathname === post),
    page.click(`button:has-text('Sign in with ${name}')`),
  ])
  expect([302, 303]).toContain(answer?.status())
  const headers = answer!.headersArray()
  const cookies = headers
    .filter((h) => h.name.toLowerCase() === "set-cookie")
    .map((h) => h.value.slice(0, h.value.indexOf("=")))
  return { location: new URL(answer!.headers().location!), cookies }
}

async function expectAuthorizeUrls(served: Served): Promise<void> {
  for (const name of ["GitHub", "Google"] as const) {
    const { context, page } = await open(browser, served.server.url)
    const { location, cookies } = await signInPost(page, name)
    const { id, client, url } = AUTHORIZE[name]
    const params = location.searchParams
    expect(`${location.origin}${location.pathname}`).toBe(url)
    expect(params.get("client_id")).toBe(client)
    expect(params.get("redirect_uri")).toBe(`${served.server.url}/auth/callback/${id}`)
    expect(params.get("response_type")).toBe("code")
    expect(params.get("state")).toMatch(/^[\w.-]{20,}$/)
    expect(params.get("code_challenge")).toMatch(/^[\w-]{43}$/)
    expect(params.get("code_challenge_method")).toBe("S256")
    if (name === "Google") {
      expect(params.get("scope")?.split(" ")).toEqual(expect.arrayContaining(["openid", "email"]))
      expect(params.get("nonce")).toBeTruthy()
    }
    // The verifier and the state, for the callback, in the browser's cookies.
    expect(cookies).toEqual(expect.arrayContaining(["authjs.pkce.code_verifier", "authjs.state"]))
    await context.close()
  }
}

for (const starter of starters) {
  describe(`npx latchkey init on the ${starter.name} starter`, () => {
    let app: FixtureApp
    let served: Served | undefined

    beforeAll(async () => {
      app = await createApp(`init-choices-${starter.name}`, [], [], starter.qwik)
    }, SETUP_TIMEOUT)

    const stop = async () => {
      expectedConsole = undefined
      await served?.server.stop()
      await served?.oidc.close()
      served = undefined
    }

    describe("--methods github,google,oidc --sessions jwt", () => {
      let written = ""
      beforeAll(async () => {
        written = await init(app, "github,google,oidc", { sessions: "jwt" })
      }, SETUP_TIMEOUT)

      it("writes the providers and no database; installs nothing more", () => {
        expect(written).toContain("methods github, google, oidc; sessions jwt")
        expect(written).toContain("package.json: lists every package needed")
        expect(written).toContain("src/routes/plugin@auth.ts: created")
        expect(written).not.toMatch(/src\/lib\/db\.ts|migrations:|install:/)
        expect(written).toContain("set AUTH_OIDC_ISSUER, AUTH_OIDC_ID and AUTH_OIDC_SECRET in .env")
      })

      describe("dev", () => {
        beforeAll(async () => {
          served = await serve(app, "dev")
          if (starter.qwik === qwik2) expectedConsole = QWIK2_DEV_CONSOLE
        }, SETUP_TIMEOUT)
        afterAll(stop)

        for (const js of [true, false]) {
          it(`signs in with the OpenID Provider and out, ${js ? "with" : "without"} JavaScript`, () =>
            oidcRoundTrip(served!, js))
        }

        it("GitHub and Google: the sign-in POST redirects to their authorize URL, with state and PKCE (not followed)", () =>
          expectAuthorizeUrls(served!))
      })

      describe("production", () => {
        beforeAll(async () => {
          served = await serve(app, "production")
        }, SETUP_TIMEOUT)
        afterAll(stop)

        it("builds (and type-checks) with no warning from Latchkey's packages or plugin", async () => {
          expect(latchkeyLines(served!.buildLog, app)).toEqual([])
          // Qwik 1's `npm run build` ran `tsc` and ESLint; Qwik 2's starter has no such script.
          if (starter.qwik === qwik2) await expect(typeCheck(app)).resolves.toBeUndefined()
        })

        it("signs in with the OpenID Provider and out", () => oidcRoundTrip(served!, true))

        it("GitHub and Google: the sign-in POST redirects to their authorize URL, with state and PKCE (not followed)", () =>
          expectAuthorizeUrls(served!))
      })
    })

    describe("--methods passkey,email,oidc --sessions postgres (needs DATABASE_URL: skipped without it)", {
      skip: !databaseUrl,
    }, () => {
      const schema = `latchkey_init_${randomUUID().replaceAll("-", "")}`
      let shell: Record<string, string>
      let written = ""

      const admin = async (sql: string) => {
        const client = new pg.Client({ connectionString: databaseUrl })
        await client.connect()
        try {
          return await client.query(sql)
        } finally {
          await client.end()
        }
      }

      beforeAll(async () => {
        await admin(`CREATE SCHEMA ${schema}`)
        const url = new URL(databaseUrl!)
        url.searchParams.set("options", `-c search_path=${schema}`)
        shell = { DATABASE_URL: url.href }
        written = await init(app, "passkey,email,oidc", {
          sessions: "postgres",
          force: true,
          env: shell,
        })
        served = await serve(app, "dev", shell)
        if (starter.qwik === qwik2) expectedConsole = QWIK2_DEV_CONSOLE
      }, SETUP_TIMEOUT)
      afterAll(async () => {
        await stop()
        await admin(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
      })

      it("replaces the JWT app's files (--force), installs pg and migrates PostgreSQL", () => {
        expect(written).toContain("methods passkey, email, oidc; sessions postgres")
        expect(written).toContain("added devDependencies @latchkey/adapter-postgres")
        expect(written).toContain("src/routes/plugin@auth.ts: overwritten")
        expect(written).toContain("src/lib/db.ts: created")
        expect(written).toMatch(/migrations: PostgreSQL .*applied migrations/)
      })

      for (const js of [true, false]) {
        it(`signs in with a link mailed to a real SMTP server and out, ${js ? "with" : "without"} JavaScript`, async () => {
          const { context, page } = await open(browser, served!.server.url, {
            javaScriptEnabled: js,
          })
          const email = `init-email-${randomUUID()}@example.com`
          await page.goto(SIGN_IN)
          const form = page.locator("form", {
            has: page.locator("button:has-text('Sign in with Email')"),
          })
          await form.locator('input[name="email"]').fill(email)
          await Promise.all([
            page.waitForURL((url) => url.pathname.includes("verify-request")),
            form.locator("button").click(),
          ])
          await page.getByText("Check your email").waitFor()
          const mail = await inbox.next(email, /^/)
          expect(mail.link).toMatch(/\/auth\/callback\/email\?/)
          await page.goto(mail.link!)
          await page.click("button:has-text('Sign in')")
          await signedInAs(page, email)
          // The address itself is this account's way in, and the account page says so.
          expect(await page.locator("[data-ways-in] li").allTextContents()).toEqual([
            expect.stringContaining(`A sign-in link mailed to ${email}`),
          ])
          await signOut(page)
          await context.close()
        })
      }

      it("signs up with a passkey on the built-in sign-in page, and back in with it", async () => {
        const { context, page } = await open(browser, served!.server.url)
        await passkeySignUpAndBack(page, `init-passkey-${randomUUID()}@example.com`)
        await signOut(page)
        await context.close()
      })

      it("signs in with the OpenID Provider: the user is a row in PostgreSQL", async () => {
        await oidcRoundTrip(served!, true)
        const { rows } = await admin(
          `SELECT count(*)::int AS n FROM ${schema}.users WHERE email LIKE 'init-oidc-%'`,
        )
        expect(rows[0].n).toBe(1)
      })
    })
  })
}
