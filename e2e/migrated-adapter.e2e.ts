/**
 * The migrated `@auth/qwik` app (`fixtures/migrated`) with a database, as `@auth/qwik`'s docs
 * write it (`fixtures/migrated-adapter`): `QwikAuth$(() => ({ adapter, providers }))` with
 * `adapter` from `~/lib/db.ts`, a module that does top-level work (`new PGlite(...)` or
 * `new pg.Pool()`, then `await migrate(db)`). The only line added to the app is the one the
 * migration guide's step 1 adds (`npx latchkey vite`); without it the server warns, naming it.
 * Then: JavaScript on and off, `vite dev` (PGlite) and a production build (PostgreSQL through
 * `pg` when DATABASE_URL is set), sign-in and sign-out that update the page without a reload,
 * no console errors, and nothing of the config or its imports in the client build.
 */
import { mkdirSync, readFileSync } from "node:fs"
import { join } from "node:path"
import pg from "pg"
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
  pglitePackage,
  pgPackage,
  pgTypesPackage,
  type RunningApp,
  removeFixtures,
  reservePort,
  serverFilesMatching,
  startDev,
  startProduction,
  writeDotEnv,
} from "./fixture-apps.js"
import { GRACE, loginAtProvider, submitCredentials } from "./migrated-steps.js"

const SETUP_TIMEOUT = 240_000
const databaseUrl = process.env.DATABASE_URL
// A schema of our own on the shared server, reached through the pool's search_path.
const schema = `latchkey_e2e_${Math.random().toString(36).slice(2, 10)}`

/**
 * What must never reach `dist/build`, each also matched in the server build so the search is
 * not vacuous. The server build imports packages by name, a client bundle would inline their
 * code: package markers match either.
 */
const SERVER_ONLY: Record<string, RegExp> = {
  "authorize() code": /hopper-1906/,
  "the PGlite database of ~/lib/db.ts": /migrated-adapter-pglite/,
  "the pg Pool of ~/lib/db.ts": /latchkey-migrated-adapter-pool/,
  "@electric-sql/pglite": /@electric-sql\/pglite|class PGlite|PGlite\b/,
  pg: /from\s*"pg"|PGUSER/,
  "@latchkey/adapter-postgres": /PostgresAdapter/,
}

let browser: Browser
let app: FixtureApp
let oidc: { issuer: string; clientId: string; clientSecret: string; close(): Promise<void> }
const ports = { unplugged: 0, dev: 0, production: 0 }
const servers: Partial<Record<keyof typeof ports, RunningApp>> = {}

beforeAll(async () => {
  browser = await launch()
  for (const key of Object.keys(ports) as (keyof typeof ports)[]) ports[key] = await reservePort()
  oidc = await startLocalOidc({
    redirectUris: Object.values(ports).map((p) => `http://127.0.0.1:${p}/auth/callback/local`),
  })
  app = await createApp(
    "migrated-adapter",
    ["migrated", "migrated-adapter"],
    ["@latchkey/adapter-postgres", pglitePackage(), pgPackage(), pgTypesPackage()],
  )
  mkdirSync(join(app.dir, ".data"))
  if (databaseUrl) await admin((client) => client.query(`CREATE SCHEMA ${schema}`))
}, SETUP_TIMEOUT)

afterAll(async () => {
  await Promise.all(Object.values(servers).map((server) => server?.stop()))
  if (databaseUrl) await admin((client) => client.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`))
  await oidc?.close()
  await browser?.close()
  if (!process.env.E2E_KEEP_FIXTURES) removeFixtures()
})

afterEach(() => {
  expect(pageErrors.splice(0)).toEqual([])
})

/** `vite dev` on PGlite: the dev server must not inherit this process's DATABASE_URL. */
async function startDevOnPglite(port: number): Promise<RunningApp> {
  const inherited = process.env.DATABASE_URL
  delete process.env.DATABASE_URL
  try {
    return await startDev(app, port)
  } finally {
    if (inherited !== undefined) process.env.DATABASE_URL = inherited
  }
}

/** The server's output once it contains `text` (the dev server logs as it loads modules). */
async function outputWith(server: RunningApp, text: string): Promise<string> {
  for (let i = 0; i < 40 && !server.output().includes(text); i++) {
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  return server.output()
}

async function admin(work: (client: pg.Client) => Promise<unknown>): Promise<void> {
  const client = new pg.Client({ connectionString: databaseUrl })
  await client.connect()
  try {
    await work(client)
  } finally {
    await client.end()
  }
}

async function envFor(port: number, database: boolean): Promise<Record<string, string>> {
  const env: Record<string, string> = {
    AUTH_SECRET: await newSecret(app),
    AUTH_URL: `http://127.0.0.1:${port}`,
    AUTH_LOCAL_ID: oidc.clientId,
    AUTH_LOCAL_SECRET: oidc.clientSecret,
    AUTH_LOCAL_ISSUER: oidc.issuer,
  }
  if (database && databaseUrl) {
    const url = new URL(databaseUrl)
    url.searchParams.set("options", `-c search_path=${schema}`)
    env.DATABASE_URL = url.href
  }
  return env
}

/** Marks the current document: a full reload loses the mark, a client-side navigation keeps it. */
async function markDocument(page: Page): Promise<void> {
  await page.evaluate(() => {
    ;(window as unknown as { latchkeyMark: boolean }).latchkeyMark = true
  })
}

async function sameDocument(page: Page): Promise<boolean> {
  return page.evaluate(
    () => (window as unknown as { latchkeyMark?: boolean }).latchkeyMark === true,
  )
}

describe("without latchkey() in vite.config.ts", () => {
  it("warns on the server, naming the line to add", async () => {
    const env = await envFor(ports.unplugged, false)
    writeDotEnv(app, env)
    servers.unplugged = await startDevOnPglite(ports.unplugged)
    const output = await outputWith(servers.unplugged, "vite-plugin-missing")
    await servers.unplugged.stop()
    expect(output).toContain("[latchkey][warn][vite-plugin-missing]")
    expect(output).toContain('import { latchkey } from "@latchkey/qwik/vite"')
  }, 120_000)
})

it("npx latchkey vite adds the plugin to the starter's vite.config.ts", async () => {
  expect(await addVitePlugin(app)).toContain("added")
  const config = readFileSync(join(app.dir, "vite.config.ts"), "utf8")
  expect(config).toContain('import { latchkey } from "@latchkey/qwik/vite";')
  expect(config).toContain("plugins: [latchkey(), qwikCity(), qwikVite(),")
  expect(await addVitePlugin(app)).toContain("already uses latchkey()")
}, 60_000)

for (const mode of ["dev", "production"] as const) {
  describe(`a migrated @auth/qwik app with a database adapter, ${mode}`, () => {
    let base = ""
    beforeAll(async () => {
      // vite dev on PGlite; the production build on PostgreSQL through `pg` when there is one.
      const env = await envFor(ports[mode], mode === "production")
      writeDotEnv(app, env)
      if (mode === "dev") {
        servers.dev = await startDevOnPglite(ports.dev)
      } else {
        await buildProduction(app)
        servers.production = await startProduction(app, ports.production, env)
      }
      base = servers[mode]!.url
    }, SETUP_TIMEOUT)
    afterAll(async () => {
      const output = servers[mode]?.output() ?? ""
      await servers[mode]?.stop()
      expect(output).not.toContain("vite-plugin-missing")
    })

    if (mode === "production") {
      for (const [what, marker] of Object.entries(SERVER_ONLY)) {
        it(`writes nothing of ${what} to the client build`, () => {
          expect(serverFilesMatching(app, marker)).not.toEqual([])
          expect(clientFilesMatching(app, marker)).toEqual([])
        })
      }

      it("keeps its users in PostgreSQL through pg when DATABASE_URL is set", async () => {
        if (!databaseUrl) return // PGlite then, as in dev
        await fetch(`${base}/`) // the server has run ~/lib/db.ts (migrate) by now
        let tables: string[] = []
        await admin(async (client) => {
          const result = await client.query(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = $1",
            [schema],
          )
          tables = result.rows.map((row: { table_name: string }) => row.table_name)
        })
        expect(tables).toEqual(expect.arrayContaining(["users", "accounts", "sessions"]))
      })

      it("writes none of PGlite's assets to the client build", () => {
        expect(clientFilesMatching(app, /./).filter((f) => /pglite|initdb/i.test(f))).toEqual([])
      })
    }

    it("signs in with the credentials form and out again, with JavaScript, without a reload", async () => {
      const { context, page } = await open(browser, base)
      await page.goto("/")
      await markDocument(page)
      await submitCredentials(page, GRACE.password, `${base}/protected/`)
      await page.getByText("Protected: Grace Hopper").waitFor()
      expect(await page.textContent('[data-testid="user"]')).toBe(GRACE.email)
      expect(await sameDocument(page)).toBe(true)

      await Promise.all([page.waitForURL(`${base}/`), page.click("text=Sign Out")])
      await page.getByText("signed out").waitFor()
      expect(await sameDocument(page)).toBe(true)
      await page.goto("/protected/")
      expect(new URL(page.url()).pathname).toBe("/auth/signin")
      await context.close()
    })

    it("signs in with the credentials form and out again, without JavaScript", async () => {
      const { context, page } = await open(browser, base, { javaScriptEnabled: false })
      await page.goto("/")
      await submitCredentials(page, GRACE.password, `${base}/protected/`)
      expect(await page.textContent("h1")).toBe("Protected: Grace Hopper")
      expect(await page.textContent('[data-testid="user"]')).toBe(GRACE.email)
      await Promise.all([page.waitForURL(`${base}/`), page.click("text=Sign Out")])
      expect(await page.textContent('[data-testid="user"]')).toBe("signed out")
      await context.close()
    })

    for (const js of [true, false]) {
      const how = js ? "with JavaScript" : "without JavaScript"

      it(`signs in through the OpenID Provider into a database session, ${how}`, async () => {
        const email = `oidc-${mode}-${js}@example.org`
        const { context, page } = await open(browser, base, { javaScriptEnabled: js })
        await page.goto("/")
        await Promise.all([
          page.waitForURL((url) => url.origin === oidc.issuer),
          page.click('[data-testid="form-local"]'),
        ])
        await loginAtProvider(page, oidc.issuer, base, email)
        expect(await page.textContent('[data-testid="user"]')).toBe(email)
        // A database session: the cookie is the sessions table's opaque token, not a JWE.
        const cookies = await context.cookies()
        const session = cookies.find((c) => c.name === "authjs.session-token")
        expect(session?.value.split(".")).toHaveLength(1)
        await context.close()
      })
    }
  })
}
