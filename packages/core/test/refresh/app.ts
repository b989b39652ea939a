/**
 * An app on `Auth()` signed in against the real OpenID Provider, for the refresh tests: a
 * browser cookie jar, the sign-in round trip, and requests carrying the browser's cookies.
 */
import { expect } from "vitest"
import type { RefreshOptions } from "../../src/features/oauth/client/provider-config.js"
import { Auth } from "../../src/index.js"
import type { AuthConfig } from "../../src/types.js"
import { oidcAppConfig, startSignIn } from "../oauth/harness/app.js"
import { Browser } from "../oauth/harness/browser.js"
import { APP_ORIGIN, type OidcHarness } from "../oauth/harness/oidc-server.js"

export { Browser }

export const SECRET = "a-refresh-test-secret-with-at-least-32-bytes!"

export function refreshConfig(
  op: OidcHarness,
  refresh: boolean | RefreshOptions,
  overrides: Partial<AuthConfig> = {},
): AuthConfig {
  return oidcAppConfig(op, SECRET, { refresh }, overrides)
}

/** Sign in through `Auth()` and the provider; the browser ends up holding the session. */
export async function signIn(op: OidcHarness, cfg: AuthConfig, browser = new Browser()) {
  const start = await startSignIn(cfg, browser, "/")
  const back = await op.authorize(start.headers.get("location")!)
  const callback = await Auth(new Request(back, { headers: { cookie: browser.header() } }), cfg)
  expect(new URL(callback.headers.get("location")!).href).toBe(`${APP_ORIGIN}/`)
  browser.store(callback)
  return browser
}

export async function readSession(cfg: AuthConfig, browser: Browser) {
  const res = await Auth(browser.request("/auth/session"), cfg)
  browser.store(res)
  return (await res.json()) as { user?: unknown; error?: string } | null
}

/** The token endpoint's hit count (code exchanges and refreshes). */
export function tokenCalls(op: OidcHarness): number {
  return op.hits.get("/token") ?? 0
}
