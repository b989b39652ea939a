/**
 * The built-in sign-in page's passkey button in Chromium, with a virtual authenticator through
 * the DevTools protocol (CTAP2, resident keys, user verification): register a passkey, sign
 * out, sign in with it. `Auth()` of @latchkey/core is served on loopback by a bare node:http
 * server, on PostgreSQL (PGlite; and the server when DATABASE_URL is set).
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { PGlite } from "@electric-sql/pglite"
import { migrate, PostgresAdapter, type Queryable } from "@latchkey/adapter-postgres"
import { Auth, type AuthConfig } from "@latchkey/core"
import Passkey from "@latchkey/core/providers/passkey"
import pg from "pg"
import type { Page } from "playwright-core"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { screenshots, useBrowser } from "./browser.js"
import { addVirtualAuthenticator, press } from "./webauthn.js"

interface Backend {
  name: string
  strategy: "jwt" | "database"
  open(): Promise<{ client: Queryable; close(): Promise<void> }>
}

const backends: Backend[] = [
  {
    name: "PGlite",
    strategy: "database",
    async open() {
      const db = new PGlite()
      await db.waitReady
      return { client: db, close: () => db.close() }
    },
  },
]
const databaseUrl = process.env.DATABASE_URL
if (databaseUrl) {
  backends.push({
    name: "PostgreSQL server",
    strategy: "jwt",
    async open() {
      const schema = `latchkey_e2e_${crypto.randomUUID().replaceAll("-", "")}`
      const admin = new pg.Client({ connectionString: databaseUrl })
      await admin.connect()
      await admin.query(`CREATE SCHEMA ${schema}`)
      const pool = new pg.Pool({
        connectionString: databaseUrl,
        options: `-c search_path=${schema}`,
      })
      return {
        client: pool,
        async close() {
          await pool.end()
          await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
          await admin.end()
        },
      }
    },
  })
}

async function toRequest(req: IncomingMessage, origin: string): Promise<Request> {
  const chunks: Buffer[] = []
  for await (const chunk of req) chunks.push(chunk as Buffer)
  const headers = new Headers()
  for (const [name, value] of Object.entries(req.headers)) {
    if (typeof value === "string") headers.set(name, value)
    else if (Array.isArray(value)) for (const v of value) headers.append(name, v)
  }
  const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined
  return new Request(new URL(req.url ?? "/", origin), {
    method: req.method,
    headers,
    ...(body && req.method !== "GET" && req.method !== "HEAD" ? { body } : {}),
  })
}

/**
 * `/auth/*` → `Auth()`; `/` → a plain home page. Requests with `x-test-conditional-ui` get the
 * configuration with conditional UI (passkeys offered in autofill), the others the one without.
 */
async function serve(
  config: AuthConfig,
  conditional: AuthConfig,
): Promise<{ server: Server; origin: string }> {
  let origin = ""
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(500, { "content-type": "text/plain" })
      res.end(`test server: ${String(error)}`)
    })
  })
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    if (!req.url?.startsWith("/auth/")) {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" })
      res.end("<!DOCTYPE html><title>Home</title><h1>Home</h1>")
      return
    }
    const chosen = req.headers["x-test-conditional-ui"] ? conditional : config
    const response = await Auth(await toRequest(req, origin), chosen)
    const headers: Record<string, string | string[]> = {}
    response.headers.forEach((value, name) => {
      if (name !== "set-cookie") headers[name] = value
    })
    const cookies = response.headers.getSetCookie()
    if (cookies.length > 0) headers["set-cookie"] = cookies
    res.writeHead(response.status, headers)
    res.end(Buffer.from(await response.arrayBuffer()))
  }
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  // `localhost`, not the IP: an IP address cannot be a WebAuthn relying-party id, and
  // http://localhost is a secure context.
  origin = `http://localhost:${(server.address() as AddressInfo).port}`
  return { server, origin }
}

async function pressPasskeyButton(page: Page) {
  await press(page, "form[data-passkey] button[type=submit]")
}

for (const backend of backends) {
  describe(`built-in sign-in page, passkey button (${backend.name}, ${backend.strategy})`, () => {
    let db: Awaited<ReturnType<Backend["open"]>>
    let server: Server
    let origin = ""
    beforeAll(async () => {
      db = await backend.open()
      await migrate(db.client)
      const config: AuthConfig = {
        providers: [Passkey({ enableConditionalUI: false })],
        adapter: PostgresAdapter(db.client),
        session: { strategy: backend.strategy },
        secret: crypto.randomUUID() + crypto.randomUUID(),
        trustHost: true,
        experimental: { enableWebAuthn: true },
        logger: { warn: () => {}, error: () => {} },
      }
      const served = await serve(config, { ...config, providers: [Passkey()] })
      server = served.server
      origin = served.origin
    })
    afterAll(async () => {
      await new Promise((resolve) => server?.close(resolve))
      await db?.close()
    })
    const openPage = useBrowser("http://localhost")

    async function sessionEmail(page: Page) {
      const res = await page.request.get(`${origin}/auth/session`)
      const body = (await res.json()) as { user?: { email?: string } } | null
      return body?.user?.email ?? null
    }

    it("registers a passkey for a new email, signs out, signs in with it", async () => {
      const { context, page } = await openPage()
      const { cdp, authenticatorId } = await addVirtualAuthenticator(page)
      const email = `ann-${crypto.randomUUID().slice(0, 8)}@example.com`

      await page.goto(`${origin}/auth/signin`)
      await page.fill('input[name="email"]', email)
      await pressPasskeyButton(page)
      await page.waitForURL(`${origin}/`)
      expect(await sessionEmail(page)).toBe(email)
      const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId })
      expect(credentials).toHaveLength(1)
      expect(credentials[0]!.isResidentCredential).toBe(true)

      // Sign out (the session cookie goes), then sign in with the passkey, no email typed.
      await context.clearCookies()
      expect(await sessionEmail(page)).toBeNull()
      await page.goto(`${origin}/auth/signin`)
      await page.screenshot({ path: `${screenshots}passkey-signin-page.png` })
      await pressPasskeyButton(page)
      await page.waitForURL(`${origin}/`)
      expect(await sessionEmail(page)).toBe(email)
      const after = await cdp.send("WebAuthn.getCredentials", { authenticatorId })
      expect(after.credentials[0]!.signCount).toBeGreaterThan(0)
      await context.close()
    })

    it("with conditional UI, the passkey is offered in the email field's autofill and signs in", async () => {
      const { context, page } = await openPage()
      await addVirtualAuthenticator(page)
      const email = `bea-${crypto.randomUUID().slice(0, 8)}@example.com`
      await page.goto(`${origin}/auth/signin`)
      await page.fill('input[name="email"]', email)
      await pressPasskeyButton(page)
      await page.waitForURL(`${origin}/`)
      await context.clearCookies()

      await page.setExtraHTTPHeaders({ "x-test-conditional-ui": "1" })
      // No click: the page's conditional request is answered by the virtual authenticator,
      // as a user picking the passkey from the autofill list.
      await page.goto(`${origin}/auth/signin`)
      await page.waitForURL(`${origin}/`)
      expect(await sessionEmail(page)).toBe(email)
      await context.close()
    })

    it("an unknown passkey is refused on the error page, nobody is signed in", async () => {
      const { context, page } = await openPage()
      const { cdp, authenticatorId } = await addVirtualAuthenticator(page)
      // A resident credential this site never registered (its key is not in the database).
      const privateKey = (
        await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign"])
      ).privateKey
      const pkcs8 = Buffer.from(await crypto.subtle.exportKey("pkcs8", privateKey))
      await cdp.send("WebAuthn.addCredential", {
        authenticatorId,
        credential: {
          credentialId: Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString("base64"),
          isResidentCredential: true,
          rpId: "localhost",
          privateKey: pkcs8.toString("base64"),
          userHandle: Buffer.from("stranger").toString("base64"),
          signCount: 0,
        },
      })
      await page.goto(`${origin}/auth/signin`)
      await pressPasskeyButton(page)
      await page.waitForURL((url) => url.pathname === "/auth/error")
      expect(new URL(page.url()).searchParams.get("error")).toBe("WebAuthnVerificationError")
      expect(await page.textContent("body")).toContain("Your passkey could not be verified")
      expect(await sessionEmail(page)).toBeNull()
      await context.close()
    })

    it("without JavaScript the page says passkeys need it", async () => {
      const { context, page } = await openPage({ javaScriptEnabled: false })
      await page.goto(`${origin}/auth/signin`)
      expect(await page.textContent("form[data-passkey]")).toContain("Passkeys need JavaScript")
      await context.close()
    })
  })
}
