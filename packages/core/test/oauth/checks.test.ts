/** Check cookies, provider resolution rules, discovery cache, and the redirect proxy. */
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { createAuthorizationRequest } from "../../src/features/oauth/authorization-url.js"
import { handleOAuthCallback } from "../../src/features/oauth/callback.js"
import { createState, openCheck, readStateParam } from "../../src/features/oauth/checks.js"
import {
  clearDiscoveryCache,
  getAuthorizationServer,
} from "../../src/features/oauth/client/discovery.js"
import { resolveOAuthProvider } from "../../src/features/oauth/client/provider.js"
import type { OIDCConfig } from "../../src/features/oauth/client/provider-config.js"
import { planRedirect, proxyForwardUrl } from "../../src/features/oauth/redirect-proxy.js"
import {
  InvalidCheck,
  InvalidEndpoints,
  InvalidProvider,
  OAuthSignInError,
} from "../../src/kernel/errors/errors.js"
import { decode } from "../../src/kernel/token/jwt.js"
import GitHub from "../../src/providers/github.js"
import OAuth from "../../src/providers/oauth.js"
import { AppCookies, flowContext, SECRET } from "./harness/flow.js"
import { type OidcHarness, startOidcServer } from "./harness/oidc-server.js"

const creds = { clientId: "id", clientSecret: "secret" }

describe("check cookies", () => {
  it("secure cookies: __Secure- names, Secure, sealed with the cookie name as salt", async () => {
    const ctx = flowContext("github", { secure: true, origin: "https://app.example" })
    const { cookies, url } = await createAuthorizationRequest(GitHub(creds), ctx)
    expect(cookies.map((c) => c.name).sort()).toEqual([
      "__Secure-authjs.pkce.code_verifier",
      "__Secure-authjs.state",
    ])
    for (const c of cookies)
      expect(c.options).toMatchObject({ secure: true, httpOnly: true, maxAge: 900 })
    const state = cookies.find((c) => c.name === "__Secure-authjs.state")!
    const payload = await decode({
      token: state.value,
      secret: SECRET,
      salt: "__Secure-authjs.state",
    })
    expect(payload).toMatchObject({
      provider: "github",
      value: new URL(url).searchParams.get("state"),
    })
    expect(payload!.exp! - payload!.iat!).toBe(900)
  })

  it("a state sealed with another secret is refused", async () => {
    const other = flowContext("github", { secret: ["another-secret-another-secret-another!!"] })
    const { cookie } = await createState(other, "github", false)
    const error = await openCheck(flowContext("github"), "state", "github", {
      [cookie.name]: cookie.value,
    }).catch((e) => e)
    expect(error).toBeInstanceOf(InvalidCheck)
    expect(error.details.reason).toBe("invalid")
  })

  it("an expired state is refused", async () => {
    const ctx = flowContext("github")
    const { cookie } = await createState(ctx, "github", false)
    const realNow = Date.now
    Date.now = () => realNow() + 16 * 60 * 1000
    try {
      const error = await openCheck(ctx, "state", "github", { [cookie.name]: cookie.value }).catch(
        (e) => e,
      )
      expect(error).toBeInstanceOf(InvalidCheck)
    } finally {
      Date.now = realNow
    }
  })
})

describe("provider resolution", () => {
  it("PKCE and state cannot be switched off (checks: ['none'] is ignored)", () => {
    const r = resolveOAuthProvider(GitHub({ ...creds, checks: ["none"] }))
    expect([...r.checks].sort()).toEqual(["pkce", "state"])
  })

  it("http: endpoints are refused unless the host is loopback", () => {
    expect(() =>
      resolveOAuthProvider(GitHub({ ...creds, token: "http://github.example/token" })),
    ).toThrow(InvalidEndpoints)
    expect(() =>
      resolveOAuthProvider(GitHub({ ...creds, token: "http://127.0.0.1:1/token" })),
    ).not.toThrow()
    expect(() =>
      resolveOAuthProvider(GitHub({ ...creds, token: "http://localhost:1/token" })),
    ).not.toThrow()
  })

  it("a missing client secret is a configuration error, unless the client is public", () => {
    expect(() => resolveOAuthProvider(GitHub({ clientId: "x" }))).toThrow(InvalidProvider)
    expect(() =>
      resolveOAuthProvider(
        GitHub({ clientId: "x", client: { token_endpoint_auth_method: "none" } }),
      ),
    ).not.toThrow()
  })

  it("an OAuth provider with neither issuer nor endpoints is InvalidEndpoints", () => {
    expect(() => resolveOAuthProvider(OAuth({ type: "oauth", id: "x", ...creds }))).toThrow(
      InvalidEndpoints,
    )
  })

  it("the app's provider object is not modified", () => {
    const p = GitHub(creds)
    const before = JSON.stringify(p)
    resolveOAuthProvider(p)
    expect(JSON.stringify(p)).toBe(before)
  })
})

describe("discovery and the OIDC provider", () => {
  let op: OidcHarness
  beforeAll(async () => {
    op = await startOidcServer()
  })
  afterAll(() => op.close())

  const oidc = () =>
    OAuth({
      type: "oidc",
      id: "oidc",
      issuer: op.issuer,
      clientId: op.clients.main.id,
      clientSecret: op.clients.main.secret,
    })

  it("a failed discovery is not cached", async () => {
    clearDiscoveryCache()
    const broken = resolveOAuthProvider(
      OAuth({ type: "oidc", id: "broken", issuer: `${op.issuer}/nowhere`, ...creds }),
    )
    await expect(getAuthorizationServer(broken)).rejects.toBeInstanceOf(OAuthSignInError)
    const hits = op.hits.get("/nowhere/.well-known/openid-configuration")
    await expect(getAuthorizationServer(broken)).rejects.toBeInstanceOf(OAuthSignInError)
    expect(op.hits.get("/nowhere/.well-known/openid-configuration")).toBe((hits ?? 0) + 1)
  })

  it("form_post: cross-site cookies (SameSite=None; Secure), callback read from the POST body", async () => {
    const p = OAuth({
      type: "oidc",
      id: "oidc-form",
      issuer: op.issuer,
      clientId: op.clients.main.id,
      clientSecret: op.clients.main.secret,
      authorization: { params: { response_mode: "form_post" } },
    }) as OIDCConfig
    const ctx = flowContext("oidc-form")
    const jar = new AppCookies()
    const request = await createAuthorizationRequest(p, ctx, { response_mode: "query" })
    expect(new URL(request.url).searchParams.get("response_mode")).toBe("form_post")
    for (const c of request.cookies)
      expect(c.options).toMatchObject({ sameSite: "none", secure: true })
    jar.apply(request.cookies)
    const { action, body } = await op.authorizeFormPost(request.url)
    expect(action.pathname).toBe("/auth/callback/oidc-form")
    const result = await handleOAuthCallback(p, ctx, {
      method: "POST",
      query: new URLSearchParams(),
      body: Object.fromEntries(body),
      cookies: jar.copy(),
    })
    expect(result.user.email).toBe("alice@example.com")
    // Replaying the posted answer with the same cookies is refused.
    const error = await handleOAuthCallback(p, ctx, {
      method: "POST",
      query: new URLSearchParams(),
      body,
      cookies: jar.copy(),
    }).catch((e) => e)
    expect(error).toBeInstanceOf(InvalidCheck)
  })

  it("the cache expires after its TTL", async () => {
    clearDiscoveryCache()
    const p = resolveOAuthProvider(oidc())
    let now = 1_000
    const before = op.hits.get("/.well-known/openid-configuration") ?? 0
    await getAuthorizationServer(p, () => now)
    await getAuthorizationServer(p, () => now)
    now += 60 * 60 * 1000 + 1
    await getAuthorizationServer(p, () => now)
    expect(op.hits.get("/.well-known/openid-configuration")).toBe(before + 2)
  })

  it("redirect proxy: redirect_uri points at the proxy, state carries our callback, proxy forwards back", async () => {
    const proxyOrigin = "http://127.0.0.1:3999"
    const preview = flowContext("oidc", {
      origin: "https://preview-123.example.dev",
      redirectProxyUrl: `${proxyOrigin}/auth`,
    })
    const jar = new AppCookies()
    const request = await createAuthorizationRequest(oidc(), preview)
    jar.apply(request.cookies)
    const q = new URL(request.url).searchParams
    expect(q.get("redirect_uri")).toBe(`${proxyOrigin}/auth/callback/oidc`)
    expect(await readStateParam(preview, q.get("state")!)).toMatchObject({
      origin: "https://preview-123.example.dev/auth/callback/oidc",
    })

    // The provider sends the browser to the proxy deployment …
    const atProxy = await op.authorize(request.url)
    expect(atProxy.origin).toBe(proxyOrigin)
    const proxy = flowContext("oidc", {
      origin: proxyOrigin,
      redirectProxyUrl: `${proxyOrigin}/auth`,
    })
    const forward = await proxyForwardUrl({ id: "oidc" }, proxy, atProxy.searchParams)
    expect(forward).not.toBeNull()
    const forwarded = new URL(forward!)
    expect(forwarded.origin + forwarded.pathname).toBe(
      "https://preview-123.example.dev/auth/callback/oidc",
    )

    // … which bounces it to the preview, where the callback completes with the proxy redirect_uri.
    const result = await handleOAuthCallback(oidc() as OIDCConfig, preview, {
      method: "GET",
      query: forwarded.searchParams,
      cookies: jar.copy(),
    })
    expect(result.user.id).toBe("alice")
  })
})

describe("redirect proxy refusals", () => {
  const proxy = flowContext("github", {
    origin: "https://auth.example.com",
    redirectProxyUrl: "https://auth.example.com/auth",
  })

  async function stateFor(origin: string) {
    return (await createState(proxy, "github", false, origin)).state
  }

  it("not proxying on the proxy itself", () => {
    const plan = planRedirect(resolveOAuthProvider(GitHub(creds)), proxy)
    expect(plan).toEqual({
      redirectUri: "https://auth.example.com/auth/callback/github",
      proxiedOrigin: undefined,
    })
  })

  it("an undecodable state is InvalidCheck (no forwarding to attacker input)", async () => {
    const error = await proxyForwardUrl(
      { id: "github" },
      proxy,
      new URLSearchParams({ state: "https://evil.example" }),
    ).catch((e) => e)
    expect(error).toBeInstanceOf(InvalidCheck)
  })

  it("a state without origin, or with our own origin, is handled here", async () => {
    expect(
      await proxyForwardUrl(
        { id: "github" },
        proxy,
        new URLSearchParams({ state: (await createState(proxy, "github", false)).state }),
      ),
    ).toBeNull()
    expect(
      await proxyForwardUrl(
        { id: "github" },
        proxy,
        new URLSearchParams({
          state: await stateFor("https://auth.example.com/auth/callback/github"),
        }),
      ),
    ).toBeNull()
  })

  it("refuses a sealed target that is not the same provider's callback, or not http(s)", async () => {
    for (const target of [
      "https://preview.example.dev/somewhere-else",
      "https://preview.example.dev/auth/callback/google",
      "javascript:alert(1)//auth/callback/github",
      "https://user:pw@preview.example.dev/auth/callback/github",
    ]) {
      const error = await proxyForwardUrl(
        { id: "github" },
        proxy,
        new URLSearchParams({ state: await stateFor(target) }),
      ).catch((e) => e)
      expect(error, target).toBeInstanceOf(InvalidCheck)
    }
  })

  it("honours an origin allow-list", async () => {
    const params = new URLSearchParams({
      state: await stateFor("https://preview.example.dev/auth/callback/github"),
      code: "c",
    })
    const error = await proxyForwardUrl({ id: "github" }, proxy, params, {
      allowOrigin: (o) => o.endsWith(".vercel.app"),
    }).catch((e) => e)
    expect(error).toBeInstanceOf(InvalidCheck)
    const ok = await proxyForwardUrl({ id: "github" }, proxy, params, {
      allowOrigin: (o) => o.endsWith(".example.dev"),
    })
    expect(new URL(ok!).searchParams.get("code")).toBe("c")
  })
})
