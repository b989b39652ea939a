/**
 * The whole flow at the request level through `Auth()`: POST /auth/signin/<id> → the real
 * OpenID Provider → GET /auth/callback/<id> → session, with the JWT and the database
 * strategies. The OAuth handlers are registered here exactly as the core will register them
 * (the signin and callback `handlers.ts`), so this also proves that wiring.
 */
import { beforeAll, describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { Auth } from "../../src/index.js"
import type { AuthConfig } from "../../src/types.js"
import { oidcAppConfig, startSignIn, useOidcServer } from "./harness/app.js"
import { Browser } from "./harness/browser.js"
import { APP_ORIGIN, type OidcHarness } from "./harness/oidc-server.js"

const SECRET = "an-auth-e2e-secret-with-at-least-32-bytes!!"
const server = useOidcServer()
let op: OidcHarness
beforeAll(() => {
  op = server()
})

function config(overrides: Partial<AuthConfig> = {}): AuthConfig {
  return oidcAppConfig(op, SECRET, {}, overrides)
}

async function signInFlow(cfg: AuthConfig, browser = new Browser()) {
  const signIn = await startSignIn(cfg, browser, "/dashboard", "?login_hint=alice")
  expect([302, 303]).toContain(signIn.status)
  const location = signIn.headers.get("location")!
  expect(location.startsWith(`${op.issuer}/auth?`)).toBe(true)
  expect(new URL(location).searchParams.get("login_hint")).toBe("alice")

  const back = await op.authorize(location)
  const callback = await Auth(new Request(back, { headers: { cookie: browser.header() } }), cfg)
  browser.store(callback)
  return { callback, browser, back }
}

async function session(cfg: AuthConfig, browser: Browser) {
  const res = await Auth(
    new Request(`${APP_ORIGIN}/auth/session`, { headers: { cookie: browser.header() } }),
    cfg,
  )
  browser.store(res)
  return res.json() as Promise<{ user?: { name?: string; email?: string; image?: string } } | null>
}

describe("Auth() with an OIDC provider", () => {
  it("JWT strategy: sign-in → provider → callback → session; check cookies cleared", async () => {
    const cfg = config()
    const { callback, browser } = await signInFlow(cfg)
    expect([302, 303]).toContain(callback.status)
    expect(callback.headers.get("location")).toBe(`${APP_ORIGIN}/dashboard`)
    const names = callback.headers.getSetCookie().map((c) => c.split("=")[0])
    expect(names).toEqual(
      expect.arrayContaining([
        "authjs.session-token",
        "authjs.state",
        "authjs.pkce.code_verifier",
        "authjs.nonce",
      ]),
    )
    expect(browser.cookies.has("authjs.state")).toBe(false)
    expect(browser.cookies.has("authjs.pkce.code_verifier")).toBe(false)
    expect(await session(cfg, browser)).toMatchObject({
      user: {
        name: "Alice Liddell",
        email: "alice@example.com",
        image: "https://img.example/alice.png",
      },
    })
  })

  it("provider tokens reach the jwt callback at sign-in but not the session", async () => {
    let seenAccessToken: unknown
    const cfg = config({
      callbacks: {
        jwt: ({ token, account }) => {
          if (account) seenAccessToken = account.access_token
          return token
        },
      },
    })
    const { browser } = await signInFlow(cfg)
    expect(typeof seenAccessToken).toBe("string")
    const body = JSON.stringify(await session(cfg, browser))
    expect(body).not.toContain(String(seenAccessToken))
  })

  it("database strategy: user, account (with tokens) and session rows are written", async () => {
    const adapter = MemoryAdapter()
    const cfg = config({ adapter })
    const { callback, browser } = await signInFlow(cfg)
    expect(callback.headers.get("location")).toBe(`${APP_ORIGIN}/dashboard`)
    const user = await adapter.getUserByAccount!({ provider: "oidc", providerAccountId: "alice" })
    expect(user).toMatchObject({ email: "alice@example.com", name: "Alice Liddell" })
    expect(await session(cfg, browser)).toMatchObject({ user: { email: "alice@example.com" } })

    // A second sign-in finds the same user.
    const again = await signInFlow(cfg, new Browser())
    expect([302, 303]).toContain(again.callback.status)
    expect(
      await adapter.getUserByAccount!({ provider: "oidc", providerAccountId: "alice" }),
    ).toMatchObject({
      id: user!.id,
    })
  })

  it("logs (debug on) never contain the code, a token, a check cookie or the client secret", async () => {
    const lines: string[] = []
    const record = (...args: unknown[]) =>
      void lines.push(
        args
          .map((a) =>
            a instanceof Error ? `${a.message} ${JSON.stringify(a)}` : JSON.stringify(a),
          )
          .join(" "),
      )
    let accessToken = ""
    const cfg = config({
      debug: true,
      logger: { error: record, warn: record, debug: record },
      callbacks: {
        jwt: ({ token, account }) => {
          if (account?.access_token) accessToken = account.access_token
          return token
        },
      },
    })
    const { back, browser } = await signInFlow(cfg)
    // A second sign-in: discovery comes from the cache, the JWKS too.
    await signInFlow(cfg)
    expect(lines.length).toBeGreaterThan(0)
    const text = lines.join("\n")
    for (const secret of [
      back.searchParams.get("code")!,
      accessToken,
      op.clients.main.secret,
      SECRET,
    ]) {
      expect(secret.length).toBeGreaterThan(5)
      expect(text).not.toContain(secret)
    }
    for (const value of browser.cookies.values()) expect(text).not.toContain(value)
  })

  it("a provider refusal lands on the sign-in page as OAuthCallbackError", async () => {
    op.deny = true
    try {
      const { callback } = await signInFlow(config())
      const location = new URL(callback.headers.get("location")!)
      expect(location.pathname).toBe("/auth/signin")
      expect(location.searchParams.get("error")).toBe("OAuthCallbackError")
    } finally {
      op.deny = false
    }
  })

  it("a forged state lands on the sign-in page (InvalidCheck) and the check cookies are cleared", async () => {
    const cfg = config()
    const browser = new Browser()
    const signIn = await Auth(
      new Request(`${APP_ORIGIN}/auth/signin/oidc`, {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "sec-fetch-site": "same-origin",
        },
        body: "",
      }),
      cfg,
    )
    browser.store(signIn)
    const back = await op.authorize(signIn.headers.get("location")!)
    back.searchParams.set("state", "forged")
    const callback = await Auth(new Request(back, { headers: { cookie: browser.header() } }), cfg)
    const location = new URL(callback.headers.get("location")!)
    expect(location.pathname).toBe("/auth/signin")
    expect(location.searchParams.get("error")).toBe("InvalidCheck")
    browser.store(callback)
    expect(browser.cookies.has("authjs.state")).toBe(false)
  })
})
