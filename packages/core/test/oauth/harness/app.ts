/**
 * An app on `Auth()` with one OIDC provider ("oidc") pointed at the harness's OpenID Provider,
 * and the first leg of its sign-in (POST /auth/signin/oidc), for the request-level tests.
 */
import { afterAll, beforeAll } from "vitest"
import { Auth } from "../../../src/index.js"
import OAuth, { type OIDCUserConfig } from "../../../src/providers/oauth.js"
import type { AuthConfig } from "../../../src/types.js"
import type { Browser } from "./browser.js"
import { APP_ORIGIN, type OidcHarness, startOidcServer } from "./oidc-server.js"

/** The OIDC provider "oidc", registered at the harness's OpenID Provider as its main client. */
export function oidcProvider(op: OidcHarness, provider: Partial<OIDCUserConfig> = {}) {
  return OAuth({
    type: "oidc",
    id: "oidc",
    name: "Test OP",
    issuer: op.issuer,
    clientId: op.clients.main.id,
    clientSecret: op.clients.main.secret,
    ...provider,
  })
}

export function oidcAppConfig(
  op: OidcHarness,
  secret: string,
  provider: Partial<OIDCUserConfig> = {},
  overrides: Partial<AuthConfig> = {},
): AuthConfig {
  return {
    secret,
    trustHost: true,
    providers: [oidcProvider(op, provider)],
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    ...overrides,
  }
}

/** POST /auth/signin/oidc as a same-origin form; the browser keeps the check cookies. */
export async function startSignIn(
  cfg: AuthConfig,
  browser: Browser,
  callbackUrl: string,
  query = "",
): Promise<Response> {
  const response = await Auth(
    new Request(`${APP_ORIGIN}/auth/signin/oidc${query}`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        "sec-fetch-site": "same-origin",
        cookie: browser.header(),
      },
      body: new URLSearchParams({ callbackUrl }),
    }),
    cfg,
  )
  browser.store(response)
  return response
}

/**
 * The OpenID Provider for one test file, started before its tests and closed after. Read it
 * through the getter.
 */
export function useOidcServer(): () => OidcHarness {
  let op: OidcHarness | undefined
  beforeAll(async () => {
    op = await startOidcServer()
  })
  afterAll(() => op?.close())
  return () => op!
}
