/**
 * Official Auth.js adapters under Latchkey, unchanged (see `adapters.ts`): email sign-in over
 * real SMTP, OpenID Connect against a real OpenID Provider, passkeys with a software
 * authenticator, and database sessions shared both ways with `@auth/core` on the same adapter.
 */
import { Auth as AuthJs } from "@auth/core"
import type { Adapter as AuthJsAdapterType } from "@auth/core/adapters"
import { PasskeyClient, softwareAuthenticator } from "@latchkey/adapter-test/webauthn"
import { Auth, type AuthConfig } from "@latchkey/core"
import { withAdapterFeature } from "@latchkey/core/adapters"
import Nodemailer from "@latchkey/core/providers/nodemailer"
import OAuth from "@latchkey/core/providers/oauth"
import Passkey from "@latchkey/core/providers/passkey"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { APP_ORIGIN, type OidcHarness, startOidcServer } from "../oauth/harness/oidc-server.js"
import { type AuthJsAdapter, drizzleOnPglite, unstorageInMemory } from "./adapters.js"
import { type SmtpInbox, startSmtpInbox } from "./smtp-inbox.js"

const SECRET = "an-authjs-adapters-secret-of-at-least-32-bytes"
const quiet = { error: () => {}, warn: () => {}, debug: () => {} }

let op: OidcHarness
let inbox: SmtpInbox

beforeAll(async () => {
  op = await startOidcServer()
  inbox = await startSmtpInbox()
})
afterAll(async () => {
  await op.close()
  await inbox.close()
})

/** One browser on the app: its cookie jar, against Latchkey's or @auth/core's `Auth()`. */
type AuthFn = (request: Request, config: never) => Promise<Response>
function browser(auth: AuthFn, config: object, cookies?: Map<string, string>) {
  const client = new PasskeyClient({ Auth: auth, config: config as never, origin: APP_ORIGIN })
  for (const [name, value] of cookies ?? []) client.cookies.set(name, value)
  return client
}

/** `url` (on the app's origin) as the path `PasskeyClient.send` takes, under `/auth`. */
const authPath = (url: string) => {
  const { pathname, search } = new URL(url)
  return pathname.slice("/auth".length) + search
}

/** POST /auth/signin/<id> with the CSRF token, as a sign-in form does; returns the redirect. */
async function postSignIn(client: PasskeyClient<never>, id: string, fields = {}) {
  const { csrfToken } = (await (await client.send("/csrf")).json()) as { csrfToken: string }
  const response = await client.send(`/signin/${id}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", origin: APP_ORIGIN },
    body: new URLSearchParams({ csrfToken, callbackUrl: `${APP_ORIGIN}/dashboard`, ...fields }),
  })
  return response.headers.get("location") ?? ""
}

/** The whole OpenID Connect sign-in: the app, the provider's login and consent, the callback. */
async function oidcSignIn(client: PasskeyClient<never>) {
  const back = await op.authorize(await postSignIn(client, "oidc"))
  return client.send(authPath(back.href))
}

function oidcProvider() {
  return {
    id: "oidc",
    name: "Test OP",
    type: "oidc" as const,
    issuer: op.issuer,
    clientId: op.clients.main.id,
    clientSecret: op.clients.main.secret,
  }
}

for (const make of [drizzleOnPglite, unstorageInMemory]) {
  describe(`${make.name}: an official Auth.js adapter under Latchkey`, () => {
    let db: AuthJsAdapter
    beforeAll(async () => {
      db = await make()
    })
    afterAll(async () => await db.close())
    afterEach(() => {
      op.accountId = "alice"
    })

    /** As an app calling `Auth()` itself hands it an Auth.js adapter: `withAdapterFeature`. */
    function config(overrides: Partial<AuthConfig> = {}): AuthConfig {
      const given: AuthConfig = {
        secret: SECRET,
        trustHost: true,
        adapter: db.adapter,
        session: { strategy: "database" },
        providers: [
          Nodemailer({ server: inbox.url, from: "Latchkey <login@latchkey.test>" }),
          OAuth(oidcProvider()),
          Passkey(),
        ],
        experimental: { enableWebAuthn: true },
        logger: quiet,
        ...overrides,
      }
      return { ...given, adapter: withAdapterFeature(given.adapter!) }
    }

    it("email: the mailed link (confirm page, then POST) signs in once, verifying the user", async () => {
      const email = `mail-${make.name}@example.com`.toLowerCase()
      const client = browser(Auth, config())
      expect(await postSignIn(client, "nodemailer", { email })).toContain("/auth/verify-request")
      const link = await inbox.nextLink(email)

      const page = await client.send(authPath(link))
      const html = await page.text()
      const fields = Object.fromEntries(
        [...html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m) => [
          m[1]!,
          m[2]!.replace(/&amp;/g, "&"),
        ]),
      )
      const confirm = () =>
        client.send("/callback/nodemailer", {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded", origin: APP_ORIGIN },
          body: new URLSearchParams(fields),
        })
      expect((await confirm()).headers.get("location")).toBe(`${APP_ORIGIN}/dashboard`)
      expect((await client.session())?.user?.email).toBe(email)
      expect((await db.adapter.getUserByEmail!(email))?.emailVerified).toBeInstanceOf(Date)

      // The token was used: the same link again is refused.
      expect((await confirm()).headers.get("location")).toContain("error=Verification")
    })

    it("OpenID Connect: signs in, links the account, and signs out (session row gone)", async () => {
      const email = `oscar-${make.name}@example.com`.toLowerCase()
      op.accounts.set("oscar", {
        sub: "oscar",
        email,
        email_verified: true,
        name: "Oscar",
        picture: "https://img.example/oscar.png",
      })
      op.accountId = "oscar"
      const client = browser(Auth, config())
      expect((await oidcSignIn(client)).headers.get("location")).toBe(`${APP_ORIGIN}/dashboard`)
      const session = await client.session()
      expect(session?.user).toMatchObject({ name: "Oscar", email })
      const account = { provider: "oidc", providerAccountId: "oscar" }
      expect((await db.adapter.getUserByAccount!(account))?.email).toBe(email)

      const token = client.cookies.get("authjs.session-token")!
      expect(await db.adapter.getSessionAndUser!(token)).not.toBeNull()
      const { csrfToken } = (await (await client.send("/csrf")).json()) as { csrfToken: string }
      await client.send("/signout", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", origin: APP_ORIGIN },
        body: new URLSearchParams({ csrfToken }),
      })
      expect(await db.adapter.getSessionAndUser!(token)).toBeNull()
      expect(await client.session()).toBeNull()
    })

    it("passkeys: register, then sign in again with the passkey", async () => {
      const email = `key-${make.name}@example.com`.toLowerCase()
      const key = softwareAuthenticator()
      const first = browser(Auth, config())
      expect((await first.register(key, { email })).url).toBe(`${APP_ORIGIN}/`)
      expect((await first.session())?.user?.email).toBe(email)

      const later = browser(Auth, config())
      expect(await later.session()).toBeNull()
      expect((await later.authenticate(key, { counter: 3 })).url).toBe(`${APP_ORIGIN}/`)
      expect((await later.session())?.user?.email).toBe(email)
      const user = await db.adapter.getUserByEmail!(email)
      const [stored] = (await db.adapter.listAuthenticatorsByUserId!(user!.id)) ?? []
      expect(stored?.counter).toBe(3)
    })

    it("session.maxListedSessions does not reach an Auth.js adapter: createSession gets one argument, every row stays until it expires, as in Auth.js", async () => {
      // Counts the arguments only: an extra one would be ignored by the adapter, not refused.
      const argCounts: number[] = []
      const adapter = {
        ...db.adapter,
        createSession: (...args: Parameters<NonNullable<typeof db.adapter.createSession>>) => {
          argCounts.push(args.length)
          return db.adapter.createSession!(...args)
        },
      }
      const cfg = config({ adapter, session: { strategy: "database", maxListedSessions: 1 } })
      const browsers = [browser(Auth, cfg), browser(Auth, cfg), browser(Auth, cfg)]
      for (const b of browsers) await oidcSignIn(b)
      expect(argCounts).toEqual([1, 1, 1])
      for (const b of browsers) {
        expect((await b.session())?.user?.email?.toLowerCase()).toBe("alice@example.com")
      }
    })

    describe("database sessions shared with @auth/core on the same adapter", () => {
      const authjsConfig = () => ({
        secret: SECRET,
        trustHost: true,
        basePath: "/auth",
        adapter: db.adapter as AuthJsAdapterType,
        session: { strategy: "database" as const },
        providers: [oidcProvider()],
        logger: quiet,
      })

      it("Latchkey reads the session @auth/core wrote", async () => {
        const authjs = browser(AuthJs, authjsConfig())
        await oidcSignIn(authjs)
        expect(authjs.cookies.get("authjs.session-token")).toBeDefined()
        const latchkey = browser(Auth, config(), authjs.cookies)
        expect((await latchkey.session())?.user?.email?.toLowerCase()).toBe("alice@example.com")
      })

      it("@auth/core reads the session Latchkey wrote", async () => {
        const latchkey = browser(Auth, config())
        await oidcSignIn(latchkey)
        const authjs = browser(AuthJs, authjsConfig(), latchkey.cookies)
        expect((await authjs.session())?.user?.email?.toLowerCase()).toBe("alice@example.com")
      })
    })
  })
}
