/// <reference path="../../core/test/oauth/harness/oidc-provider.d.ts" />
/**
 * Issue 23's attacks through the Qwik binding (its actions and its `onRequest`), against the real
 * core: each protection holds for an app that only ever talks to Latchkey through the binding.
 */

import type { RequestEventAction } from "@builder.io/qwik-city"
import { PasskeyClient, softwareAuthenticator } from "@latchkey/adapter-test/webauthn"
import { Auth } from "@latchkey/core"
import { MemoryAdapter } from "@latchkey/core/adapters/memory"
import Credentials from "@latchkey/core/providers/credentials"
import Nodemailer from "@latchkey/core/providers/nodemailer"
import Passkey from "@latchkey/core/providers/passkey"
import { MemoryStore } from "@latchkey/core/store"
import fc from "fast-check"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { oidcProvider } from "../../core/test/oauth/harness/app.js"
import {
  APP_ORIGIN,
  type OidcHarness,
  startOidcServer,
} from "../../core/test/oauth/harness/oidc-server.js"
import { signIn, signOut, updateSession } from "../src/actions.js"
import { handleRequest } from "../src/on-request.js"
import { toLocation } from "../src/redirect.js"
import type { QwikAuthConfig } from "../src/types.js"
import { fakeEvent, ORIGIN, outcome, Redirect } from "./fake-event.js"

const SECRET = "a-qwik-attack-secret-that-is-32-bytes-or-more!"
const SIBLING = "http://evil.127.0.0.1.nip.example"

function credentialsConfig(extra: Partial<QwikAuthConfig> = {}) {
  let authorized = 0
  const config: QwikAuthConfig = {
    secret: SECRET,
    trustHost: true,
    store: new MemoryStore(),
    providers: [
      Credentials({
        credentials: { username: {}, password: { type: "password" } },
        rateLimit: { perIp: false },
        authorize: (c) => {
          authorized++
          return c.username === "victim" && c.password === "right"
            ? { id: "v", name: "Victim", email: "victim@example.com" }
            : null
        },
      }),
    ],
    ...extra,
  }
  return { config, authorized: () => authorized }
}

/** A signed-in browser's cookie header, signed in through the binding's action. */
async function signedInCookie(config: QwikAuthConfig): Promise<string> {
  const { event, cookies } = fakeEvent("/login/")
  await outcome(
    signIn(event, config, {
      providerId: "credentials",
      options: { username: "victim", password: "right" },
    }),
  )
  return [...cookies].map(([k, v]) => `${k}=${v}`).join("; ")
}

async function sessionOf(config: QwikAuthConfig, cookie: string) {
  const res = await Auth(new Request(`${ORIGIN}/auth/session`, { headers: { cookie } }), config)
  return (await res.json()) as { user?: { name?: string; email?: string } } | null
}

describe("item 6: redirects", () => {
  it.each(["/..//evil.example/path", `${ORIGIN}//evil.example/path`, "/x/../..//evil.example"])(
    "attack: signIn and signOut with redirectTo %j never send the browser to //evil.example",
    async (redirectTo) => {
      const { config } = credentialsConfig()
      const a = fakeEvent("/login/")
      const input = {
        providerId: "credentials",
        options: { username: "victim", password: "right", redirectTo },
      }
      const signedIn = (await outcome(signIn(a.event, config, input))) as Redirect
      expect(signedIn).toBeInstanceOf(Redirect)
      expect(signedIn.location).toMatch(/^\/(?![/\\])/)
      const cookie = [...a.cookies].map(([k, v]) => `${k}=${v}`).join("; ")
      const b = fakeEvent("/account/", { cookie })
      const signedOut = (await outcome(signOut(b.event, config, { redirectTo }))) as Redirect
      expect(signedOut.location).toMatch(/^\/(?![/\\])/)
    },
  )

  it("toLocation: a path never starts with // or /\\ (property)", () => {
    const pieces = fc.constantFrom("/", "//", "\\", "..", ".", "%2e", "evil.example", "?", "#", "@")
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.array(pieces, { maxLength: 10 }).map((p) => p.join("")),
          fc.array(pieces, { maxLength: 10 }).map((p) => `${ORIGIN}${p.join("")}`),
        ),
        (target) => {
          const location = toLocation(target, ORIGIN)
          expect(location.startsWith("//") || location.startsWith("/\\")).toBe(false)
          if (location.startsWith("/")) expect(new URL(location, ORIGIN).origin).toBe(ORIGIN)
        },
      ),
      { numRuns: 1000 },
    )
  })
})

describe("item 4: CSRF on the binding's actions", () => {
  const sibling = { origin: SIBLING, "sec-fetch-site": "same-site" }

  it("attack: a same-site sign-out from a sibling subdomain is refused; the session survives", async () => {
    const { config } = credentialsConfig()
    const cookie = await signedInCookie(config)
    const { event } = fakeEvent("/account/", { cookie, headers: sibling })
    const thrown = (await outcome(signOut(event, config, { redirectTo: "/" }))) as Redirect
    expect(new URL(thrown.location, ORIGIN).searchParams.get("error")).toBe("MissingCSRF")
    expect((await sessionOf(config, cookie))?.user?.name).toBe("Victim")
  })

  it("attack: a same-site session update from a sibling subdomain is refused", async () => {
    const { config } = credentialsConfig()
    const cookie = await signedInCookie(config)
    const { event } = fakeEvent("/account/", { cookie, headers: sibling })
    const result = await updateSession(event as RequestEventAction, config, {
      data: { name: "Mallory" },
    })
    expect(result).toMatchObject({ failed: true, status: 403 })
  })

  it("attack: login CSRF from a sibling subdomain is refused, no session cookie set", async () => {
    const { config } = credentialsConfig()
    const { event, cookies } = fakeEvent("/login/", { headers: sibling })
    const input = { providerId: "credentials", options: { username: "victim", password: "right" } }
    const thrown = (await outcome(signIn(event, config, input))) as Redirect
    expect(new URL(thrown.location, ORIGIN).searchParams.get("error")).toBe("MissingCSRF")
    expect([...cookies.keys()].some((k) => k.includes("session-token"))).toBe(false)
  })
})

describe("item 3: the credentials limit through the signIn action", () => {
  it("attack: 30 guesses, each with a random extra email field, reach authorize 10 times", async () => {
    const { config, authorized } = credentialsConfig()
    for (let i = 0; i < 30; i++) {
      const { event } = fakeEvent("/login/")
      const options = {
        username: "victim",
        password: `guess-${i}`,
        email: `${crypto.randomUUID()}@x.example`,
      }
      await outcome(signIn(event, config, { providerId: "credentials", options }))
    }
    expect(authorized()).toBe(10)
  })
})

describe("items 1, 2 and 5 through onRequest", () => {
  let op: OidcHarness
  beforeAll(async () => {
    op = await startOidcServer()
    op.accounts.set("victim", {
      sub: "victim",
      email: "victim@example.com",
      email_verified: true,
      name: "Victim",
      picture: "https://img.example/v.png",
    })
  })
  afterAll(() => op.close())

  function fullConfig() {
    const adapter = MemoryAdapter()
    const mails: string[] = []
    const config: QwikAuthConfig = {
      secret: SECRET,
      trustHost: true,
      adapter,
      store: new MemoryStore(),
      session: { strategy: "jwt", revocation: "strict" },
      experimental: { enableWebAuthn: true },
      providers: [
        Passkey(),
        Nodemailer({ id: "email", sendVerificationRequest: ({ url }) => void mails.push(url) }),
        oidcProvider(op),
      ],
      logger: { error: () => {}, warn: () => {}, debug: () => {} },
    }
    return { adapter, config, mails }
  }

  /**
   * A browser talking to the binding's `onRequest` (the core under `/auth`): what the binding
   * throws and the cookies it sets through `event.cookie` become the response.
   */
  function onRequestBrowser(config: QwikAuthConfig, origin = ORIGIN) {
    return new PasskeyClient({
      origin,
      config,
      Auth: async (request: Request, cfg: QwikAuthConfig) => {
        const { event, setCalls } = fakeEvent(request.url, { method: request.method })
        Object.assign(event, { request })
        const thrown = await outcome(handleRequest(event, cfg))
        const response =
          thrown instanceof Redirect
            ? new Response(null, { status: thrown.status, headers: { location: thrown.location } })
            : (thrown as { response: Response }).response
        const merged = new Headers(response.headers)
        for (const c of setCalls) {
          const maxAge = c.maxAge === undefined ? "" : `; Max-Age=${c.maxAge}`
          // The binding hands Qwik wire values (already encoded), as Qwik writes them.
          merged.append("set-cookie", `${c.name}=${c.value}${maxAge}`)
        }
        return new Response(response.body, { status: response.status, headers: merged })
      },
    })
  }

  it("item 4, attack: a sibling subdomain's planted pair and same-site POST to /auth/signout through onRequest → 403", async () => {
    const { config } = fullConfig()
    const attacker = onRequestBrowser(config)
    const minted = await attacker.send("/csrf")
    const { csrfToken } = (await minted.json()) as { csrfToken: string }
    const victim = onRequestBrowser(config)
    await victim.register(softwareAuthenticator(), { email: "owner@example.com" })
    victim.cookies.set("authjs.csrf-token", attacker.cookies.get("authjs.csrf-token")!)
    const res = await victim.send("/signout", {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: SIBLING,
        "sec-fetch-site": "same-site",
      },
      body: new URLSearchParams({ csrfToken }).toString(),
    })
    expect(res.status).toBe(403)
    expect((await victim.session())?.user?.email).toBe("owner@example.com")
  })

  it("item 5, attack: passkey options for a known and an unknown email answer alike", async () => {
    const { config } = fullConfig()
    const registered = await onRequestBrowser(config).register(softwareAuthenticator(), {
      email: "known@example.com",
    })
    expect(registered.url).toBe(`${ORIGIN}/`)
    const probe = onRequestBrowser(config)
    const known = await probe.options({ email: "known@example.com" })
    const unknown = await probe.options({ email: "unknown@example.com" })
    expect([known.status, known.body.action]).toEqual([unknown.status, unknown.body.action])
  })

  it("item 1, attack: a passkey registered for the victim's email, then the owner by the email link: the link claims the row, the passkey is gone", async () => {
    const { adapter, config, mails } = fullConfig()
    const key = softwareAuthenticator()
    const attacker = onRequestBrowser(config)
    expect((await attacker.register(key, { email: "victim@example.com" })).url).toBe(`${ORIGIN}/`)
    const planted = await adapter.getUserByEmail!("victim@example.com")

    const { event } = fakeEvent("/login/")
    await outcome(
      signIn(event, config, { providerId: "email", options: { email: "victim@example.com" } }),
    )
    const link = new URL(mails.at(-1)!)
    const owner = onRequestBrowser(config)
    const confirmed = await owner.send("/callback/email", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: ORIGIN },
      body: new URLSearchParams({
        token: link.searchParams.get("token")!,
        email: "victim@example.com",
      }).toString(),
    })
    expect(confirmed.status).toBe(303)
    const landed = new URL(confirmed.headers.get("location")!, ORIGIN)
    expect(landed.searchParams.get("error")).toBeNull()
    expect((await owner.session())?.user?.email).toBe("victim@example.com")
    // The owner's proof claimed the row (kernel/account/claim.ts): same id, now proven, and the
    // attacker's passkey and session no longer reach it.
    const claimed = await adapter.getUserByEmail!("victim@example.com")
    expect(claimed?.id).toBe(planted?.id)
    expect(claimed?.emailVerified).toBeInstanceOf(Date)
    expect(await adapter.listAuthenticatorsByUserId!(planted!.id)).toEqual([])
    expect(await attacker.session()).toBeNull()
    const again = onRequestBrowser(config)
    const refusedAgain = await again.authenticate(key)
    expect(new URL(refusedAgain.url).searchParams.get("error")).toBe("WebAuthnVerificationError")
    expect(await again.session()).toBeNull()
  })

  it("item 2, attack: the attacker's OAuth flow cookies tossed into the signed-in victim's browser → refused", async () => {
    const { adapter, config } = fullConfig()
    // The attacker starts the flow through the binding's signIn action (on the origin the
    // local OpenID Provider redirects back to).
    const { event, cookies } = fakeEvent(`${APP_ORIGIN}/login/`, {
      headers: { origin: APP_ORIGIN, "sec-fetch-site": "same-origin" },
    })
    const started = (await outcome(signIn(event, config, { providerId: "oidc" }))) as Redirect
    op.accountId = "victim"
    const back = await op.authorize(started.location)

    // The victim, signed in with a passkey, gets the attacker's check cookies and the callback.
    const victim = onRequestBrowser(config, APP_ORIGIN)
    expect(
      (await victim.register(softwareAuthenticator(), { email: "owner@example.com" })).url,
    ).toBe(`${APP_ORIGIN}/`)
    for (const [name, value] of cookies) victim.cookies.set(name, decodeURIComponent(value))
    const done = await victim.send(`/callback/oidc${back.search}`)
    expect(new URL(done.headers.get("location")!).searchParams.get("error")).toBe(
      "OAuthSessionMismatch",
    )
    expect(
      await adapter.getUserByAccount!({ provider: "oidc", providerAccountId: "victim" }),
    ).toBeNull()
    expect((await victim.session())?.user?.email).toBe("owner@example.com")
  })
})
