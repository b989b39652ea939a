/**
 * A stale or replayed OAuth callback is the user's everyday trouble, not a server fault: the
 * sign-in page with a message to start again (HTTP 200), a `check-failed` warning naming the
 * check, never the 500 "server configuration" page. Through `Auth()` and the real OpenID
 * Provider (oidc-provider on loopback).
 */
import { beforeAll, describe, expect, it } from "vitest"
import { Auth } from "../../src/index.js"
import { MemoryStore } from "../../src/store.js"
import type { AuthConfig } from "../../src/types.js"
import { recordingLogger } from "../auth/helpers.js"
import { oidcAppConfig, startSignIn, useOidcServer } from "./harness/app.js"
import { Browser } from "./harness/browser.js"
import { APP_ORIGIN, type OidcHarness } from "./harness/oidc-server.js"

const SECRET = "a-check-failure-secret-with-at-least-32-bytes!!"
const server = useOidcServer()
let op: OidcHarness
beforeAll(() => {
  op = server()
})

function setup(overrides: Partial<AuthConfig> = {}) {
  const rec = recordingLogger()
  const cfg = oidcAppConfig(
    op,
    SECRET,
    {},
    { logger: rec.logger, store: new MemoryStore(), ...overrides },
  )
  return { rec, cfg }
}

/** Sign-in started in `browser`; returns the provider's redirect back to the app's callback. */
async function toProviderAndBack(cfg: AuthConfig, browser: Browser): Promise<URL> {
  const signIn = await startSignIn(cfg, browser, "/dashboard")
  return op.authorize(signIn.headers.get("location")!)
}

async function callback(cfg: AuthConfig, back: URL, cookie: string, headers = {}) {
  return Auth(new Request(back, { headers: { cookie, ...headers } }), cfg)
}

/** The redirect's target, fetched as the browser would: the page the user ends up on. */
async function follow(cfg: AuthConfig, response: Response, browser: Browser) {
  const location = new URL(response.headers.get("location")!)
  const page = await Auth(new Request(location, { headers: { cookie: browser.header() } }), cfg)
  return { location, page, html: await page.text() }
}

function checkWarnings(rec: ReturnType<typeof recordingLogger>): string[] {
  return rec.calls
    .filter((c) => c.level === "warn" && c.args[0] === "check-failed")
    .map((c) => String(c.args[1]))
}

describe("a callback whose checks fail sends the user back to sign in", () => {
  it("cookies cleared while on the provider's page: sign-in page (200) with the message, a warning naming the check", async () => {
    const { rec, cfg } = setup()
    const browser = new Browser()
    const back = await toProviderAndBack(cfg, browser)
    browser.cookies.clear()
    const res = await callback(cfg, back, browser.header())
    expect(res.status).toBe(302)
    const { location, page, html } = await follow(cfg, res, browser)
    expect(location.origin + location.pathname).toBe(`${APP_ORIGIN}/auth/signin`)
    expect(location.searchParams.get("error")).toBe("InvalidCheck")
    expect(page.status).toBe(200)
    expect(html).toContain("This sign-in attempt expired or was already used")
    expect(html).not.toContain("server configuration")
    // One warn line naming the check; nothing at error level.
    expect(rec.calls.filter((c) => c.level === "error")).toEqual([])
    const [warning] = checkWarnings(rec)
    expect(warning).toMatch(/check: (state|pkceCodeVerifier|nonce), reason: missing/)
    expect(warning).toContain('provider "oidc"')
  })

  it("the replayed callback (Back and resubmit) lands on the same page, the warning says replayed", async () => {
    const { rec, cfg } = setup()
    const browser = new Browser()
    const back = await toProviderAndBack(cfg, browser)
    const firstCookies = browser.header()
    const first = await callback(cfg, back, firstCookies)
    expect(first.headers.get("location")).toBe(`${APP_ORIGIN}/dashboard`)
    // The browser's history still holds the old callback URL and, in a stale tab, its cookies.
    const replay = await callback(cfg, back, firstCookies)
    const { location, page, html } = await follow(cfg, replay, browser)
    expect(location.pathname).toBe("/auth/signin")
    expect(location.searchParams.get("error")).toBe("InvalidCheck")
    expect(page.status).toBe(200)
    expect(html).toContain("already used")
    expect(checkWarnings(rec)).toEqual([expect.stringMatching(/check: state, reason: replayed/)])
    expect(rec.calls.filter((c) => c.level === "error")).toEqual([])
  })

  it("a callback opened in another browser (no check cookies at all) is the same message", async () => {
    const { cfg } = setup()
    const back = await toProviderAndBack(cfg, new Browser())
    const res = await callback(cfg, back, "")
    expect(new URL(res.headers.get("location")!).searchParams.get("error")).toBe("InvalidCheck")
  })

  it("an app's own sign-in page (pages.signIn) receives error=InvalidCheck", async () => {
    const { cfg } = setup({ pages: { signIn: "/login" } })
    const browser = new Browser()
    const back = await toProviderAndBack(cfg, browser)
    const res = await callback(cfg, back, "")
    expect(res.headers.get("location")).toBe(`${APP_ORIGIN}/login?error=InvalidCheck`)
  })

  it("a JSON caller gets a typed 400 with the sign-in page to start again from", async () => {
    const { cfg } = setup()
    const back = await toProviderAndBack(cfg, new Browser())
    const res = await callback(cfg, back, "", { accept: "application/json" })
    expect(res.status).toBe(400)
    const body = (await res.json()) as { error: { type: string; message: string }; url: string }
    expect(body.error.type).toBe("InvalidCheck")
    expect(body.error.message).toMatch(/expired or was already used/)
    expect(body.url).toBe(`${APP_ORIGIN}/auth/signin?error=InvalidCheck`)
  })

  it("the check cookies of a failed callback are cleared, so the next attempt starts clean", async () => {
    const { cfg } = setup()
    const browser = new Browser()
    const back = await toProviderAndBack(cfg, browser)
    browser.cookies.delete("authjs.pkce.code_verifier")
    const res = await callback(cfg, back, browser.header())
    browser.store(res)
    expect(new URL(res.headers.get("location")!).searchParams.get("error")).toBe("InvalidCheck")
    expect(browser.cookies.has("authjs.state")).toBe(false)
    // And the next attempt from the sign-in page works.
    const again = await toProviderAndBack(cfg, browser)
    const ok = await callback(cfg, again, browser.header())
    expect(ok.headers.get("location")).toBe(`${APP_ORIGIN}/dashboard`)
  })

  it("a store that cannot check the state for replays is an outage (503 page, Retry-After), not a stale attempt", async () => {
    class FailingStore extends MemoryStore {
      override consumeOnce(): never {
        throw new Error("ECONNREFUSED")
      }
    }
    const failing = new FailingStore()
    const { rec, cfg } = setup({ store: failing })
    const browser = new Browser()
    const back = await toProviderAndBack(cfg, browser)
    const res = await callback(cfg, back, browser.header())
    const { location, page, html } = await follow(cfg, res, browser)
    expect(location.pathname).toBe("/auth/error")
    expect(location.searchParams.get("error")).toBe("StoreError")
    expect(page.status).toBe(503)
    expect(page.headers.get("retry-after")).toBe("30")
    expect(html).toContain("temporarily unavailable")
    expect(rec.calls.filter((c) => c.level === "error")).toHaveLength(1)
    expect(checkWarnings(rec)).toEqual([])
  })

  it("a real configuration error still gets the 500 error page", async () => {
    const rec = recordingLogger()
    const cfg = oidcAppConfig(
      op,
      SECRET,
      {
        profile: () => {
          throw new Error("the app's profile() is broken")
        },
      },
      { logger: rec.logger, store: new MemoryStore() },
    )
    const browser = new Browser()
    const back = await toProviderAndBack(cfg, browser)
    const res = await callback(cfg, back, browser.header())
    const { location, page } = await follow(cfg, res, browser)
    expect(location.pathname).toBe("/auth/error")
    expect(location.searchParams.get("error")).toBe("Configuration")
    expect(page.status).toBe(500)
    expect(rec.calls.filter((c) => c.level === "error")).toHaveLength(1)
  })
})
