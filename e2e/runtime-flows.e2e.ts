/**
 * The ways in other than a password, on the edge runtimes (Cloudflare's workerd through
 * `wrangler pages dev`, and Vercel's `edge-runtime`), as plain HTTP: an OpenID Connect round
 * trip against a real OpenID Provider on loopback (`oidc-provider`, the demo's), an email link
 * sent by HTTP to an inbox on loopback (these runtimes have no TCP, so no SMTP), and a passkey
 * registered and used by a software authenticator (P-256, verified by `@simplewebauthn/server`
 * inside the runtime). JWT sessions; users in the memory adapter of the app's one isolate.
 *
 * Database sessions are not here. On workerd, `pg` reaches PostgreSQL through
 * `cloudflare:sockets` with the `nodejs_compat` flag: packages/adapter-postgres/test/workerd.test.ts
 * runs them there. PGlite cannot run on workerd (it compiles its WebAssembly at run time, which
 * workerd refuses: "Wasm code generation disallowed by embedder"). Vercel Edge has no TCP at all,
 * so `pg` cannot run there; a Postgres driver over HTTP or WebSockets would be needed.
 */
import { createServer, type Server } from "node:http"
import type { AddressInfo } from "node:net"
import { PasskeyClient, softwareAuthenticator } from "@latchkey/adapter-test/webauthn"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
// The demo's local OpenID Provider (a real one, `oidc-provider`), reused as it is.
import { startLocalOidc } from "../examples/qwik-app/scripts/local-oidc.mjs"
import {
  createApp,
  type FixtureApp,
  newSecret,
  type RunningApp,
  removeFixtures,
  reservePort,
} from "./fixture-apps.js"
import {
  buildClient,
  buildServer,
  installRuntimeTools,
  RUNTIMES,
  selectedRuntimes,
} from "./runtimes.js"

const SETUP_TIMEOUT = 240_000
const SESSION_COOKIE = "authjs.session-token"

let app: FixtureApp
let secret: string

beforeAll(async () => {
  const [created] = await Promise.all([
    createApp("runtime-flows", ["own-users", "runtime-adapters", "runtime-flows"]).then(
      async (created) => {
        await buildClient(created)
        return created
      },
    ),
    installRuntimeTools(),
  ])
  app = created
  secret = await newSecret(app)
}, SETUP_TIMEOUT)

afterAll(() => {
  if (!process.env.E2E_KEEP_FIXTURES) removeFixtures()
})

/** A browser without JavaScript: one cookie jar per origin, redirects not followed. */
class HttpBrowser {
  readonly #jars = new Map<string, Map<string, string>>()

  cookie(origin: string, name: string): string | undefined {
    return this.#jars.get(origin)?.get(name)
  }

  async request(url: string | URL, init: RequestInit = {}): Promise<Response> {
    const target = new URL(url)
    const jar = this.#jars.get(target.origin) ?? new Map<string, string>()
    this.#jars.set(target.origin, jar)
    const headers = new Headers(init.headers)
    if (jar.size > 0) headers.set("cookie", [...jar].map(([k, v]) => `${k}=${v}`).join("; "))
    if (init.method === "POST") headers.set("origin", target.origin)
    const response = await fetch(target, { ...init, headers, redirect: "manual" })
    for (const raw of response.headers.getSetCookie()) {
      const [pair = "", ...attributes] = raw.split(/;\s*/)
      const eq = pair.indexOf("=")
      const name = pair.slice(0, eq)
      const value = pair.slice(eq + 1)
      const gone = value === "" || attributes.some((a) => /^max-age=0$/i.test(a))
      if (gone) jar.delete(name)
      else jar.set(name, value)
    }
    return response
  }

  post(url: string | URL, form: Record<string, string>): Promise<Response> {
    return this.request(url, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(form),
    })
  }

  /** `POST {basePath}/signin/<id>` with the CSRF token, as the built-in sign-in page does. */
  async signIn(appUrl: string, providerId: string, fields: Record<string, string> = {}) {
    const { csrfToken } = (await (await this.request(`${appUrl}/auth/csrf`)).json()) as {
      csrfToken: string
    }
    return this.post(`${appUrl}/auth/signin/${providerId}`, {
      csrfToken,
      callbackUrl: `${appUrl}/`,
      ...fields,
    })
  }

  async sessionEmail(appUrl: string): Promise<string | null | undefined> {
    const session = (await (await this.request(`${appUrl}/auth/session`)).json()) as {
      user?: { email?: string | null }
    } | null
    return session?.user?.email
  }
}

/** `name → value` of a page's hidden inputs, entity-decoded. */
function hiddenInputs(html: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    out[m[1]!] = m[2]!
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&amp;/g, "&")
  }
  return out
}

/** Mails the app sends by HTTP (its `sendVerificationRequest` POSTs them here). */
async function startInbox(): Promise<{
  url: string
  mails: { to: string; url: string }[]
  close(): Promise<void>
}> {
  const mails: { to: string; url: string }[] = []
  const server: Server = createServer(async (req, res) => {
    let body = ""
    for await (const chunk of req) body += chunk
    mails.push(JSON.parse(body) as { to: string; url: string })
    res.writeHead(204).end()
  })
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const { port } = server.address() as AddressInfo
  return {
    url: `http://127.0.0.1:${port}/mail`,
    mails,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  }
}

const edge = RUNTIMES.filter((r) => r.isolates)

for (const runtime of selectedRuntimes(edge)) {
  describe(runtime.name, () => {
    let server: RunningApp
    let oidc: Awaited<ReturnType<typeof startLocalOidc>>
    let inbox: Awaited<ReturnType<typeof startInbox>>
    let appUrl: string

    beforeAll(async () => {
      await buildServer(app, runtime.adapter)
      const port = await reservePort()
      appUrl = `http://127.0.0.1:${port}`
      oidc = await startLocalOidc({ redirectUris: [`${appUrl}/auth/callback/local-oidc`] })
      inbox = await startInbox()
      server = await runtime.start(app, port, {
        AUTH_SECRET: secret,
        AUTH_URL: appUrl,
        OIDC_ISSUER: oidc.issuer,
        OIDC_CLIENT_ID: oidc.clientId,
        OIDC_CLIENT_SECRET: oidc.clientSecret,
        INBOX_URL: inbox.url,
      })
    }, SETUP_TIMEOUT)

    afterAll(async () => {
      await server?.stop()
      await oidc?.close()
      await inbox?.close()
    })

    it("signs in through a real OpenID Connect round trip (discovery, PKCE, state, nonce, ID token)", async () => {
      const browser = new HttpBrowser()
      const email = `oidc-${crypto.randomUUID()}@example.org`
      const start = await browser.signIn(appUrl, "local-oidc")
      expect(start.status).toBe(303)
      let next = new URL(start.headers.get("location") ?? "")
      expect(next.origin).toBe(oidc.issuer)
      expect(next.searchParams.get("code_challenge_method")).toBe("S256")
      // Through the provider's login (a form) and consent (granted by itself) back to the app.
      for (let hop = 0; next.origin === oidc.issuer; hop++) {
        if (hop > 10) throw new Error("the provider never sent the browser back")
        let answer = await browser.request(next)
        if (answer.status === 200 && next.pathname.startsWith("/interaction/")) {
          answer = await browser.post(next, { name: "Olga", email, action: "login" })
        }
        expect([302, 303]).toContain(answer.status)
        next = new URL(answer.headers.get("location") ?? "", next)
      }
      expect(next.pathname).toBe("/auth/callback/local-oidc")
      const callback = await browser.request(next)
      expect([302, 303]).toContain(callback.status)
      expect(new URL(callback.headers.get("location") ?? "").href).toBe(`${appUrl}/`)
      expect(browser.cookie(appUrl, SESSION_COOKIE)).toBeDefined()
      expect(await browser.sessionEmail(appUrl)).toBe(email)

      // The same callback again (a replayed URL) signs no one in.
      const replay = new HttpBrowser()
      const replayed = await replay.request(next)
      expect(replay.cookie(appUrl, SESSION_COOKIE)).toBeUndefined()
      expect(replayed.headers.get("location") ?? "").toContain("error=")
      expect(server.output()).not.toMatch(/is not defined|error=Configuration/)
    })

    it("signs in with an email link sent by HTTP, once", async () => {
      const browser = new HttpBrowser()
      const email = `link-${crypto.randomUUID()}@example.org`
      const sent = await browser.signIn(appUrl, "email", { email })
      expect(sent.status).toBe(303)
      expect(new URL(sent.headers.get("location") ?? "").pathname).toBe("/auth/verify-request")
      const mail = inbox.mails.find((m) => m.to === email)
      expect(mail).toBeDefined()
      const link = new URL(mail!.url)
      expect(link.origin).toBe(appUrl)
      expect(link.pathname).toBe("/auth/callback/email")

      // The link opens a page whose button posts it (a mail scanner's GET signs no one in).
      const confirm = (b: HttpBrowser) => async () => {
        const page = await b.request(link)
        expect(page.status).toBe(200)
        return b.post(link.origin + link.pathname, hiddenInputs(await page.text()))
      }
      expect(browser.cookie(appUrl, SESSION_COOKIE)).toBeUndefined()
      const opened = await confirm(browser)()
      expect([302, 303]).toContain(opened.status)
      expect(await browser.sessionEmail(appUrl)).toBe(email)

      const again = new HttpBrowser()
      const reused = await confirm(again)()
      expect(reused.headers.get("location") ?? "").toContain("error=Verification")
      expect(again.cookie(appUrl, SESSION_COOKIE)).toBeUndefined()
    })

    it("registers a passkey for a new account, then signs in with it (software authenticator)", async () => {
      const key = softwareAuthenticator()
      const email = `passkey-${crypto.randomUUID()}@example.org`
      // `Auth` here is the app itself, over loopback HTTP.
      const Auth = (request: Request) => fetch(request, { redirect: "manual" })
      const first = new PasskeyClient({ Auth, config: {}, origin: appUrl })
      const registered = await first.register(key, { email })
      expect(registered.status).toBe(200)
      expect((await first.session())?.user?.email).toBe(email)

      const later = new PasskeyClient({ Auth, config: {}, origin: appUrl })
      const signedIn = await later.authenticate(key)
      expect(signedIn.status).toBe(200)
      expect((await later.session())?.user?.email).toBe(email)
      expect(server.output()).not.toMatch(/is not defined/)
    })
  })
}
