/**
 * The OIDC flow against a real OpenID Provider (oidc-provider on 127.0.0.1): authorization
 * request → login and consent at the provider → callback → user and account.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { createAuthorizationRequest } from "../../src/features/oauth/authorization-url.js"
import { handleOAuthCallback } from "../../src/features/oauth/callback.js"
import { clearDiscoveryCache } from "../../src/features/oauth/client/discovery.js"
import type { OIDCConfig } from "../../src/features/oauth/client/provider-config.js"
import { InvalidCheck, OAuthCallbackError } from "../../src/kernel/errors/errors.js"
import { encode } from "../../src/kernel/token/jwt.js"
import OAuth from "../../src/providers/oauth.js"
import { AppCookies, flowContext, SECRET } from "./harness/flow.js"
import { type OidcHarness, startOidcServer } from "./harness/oidc-server.js"

let op: OidcHarness
let provider: OIDCConfig

beforeAll(async () => {
  op = await startOidcServer()
  provider = OAuth({
    type: "oidc",
    id: "oidc",
    name: "Test OP",
    issuer: op.issuer,
    clientId: op.clients.main.id,
    clientSecret: op.clients.main.secret,
  }) as OIDCConfig
})
afterAll(() => op.close())
beforeEach(() => {
  op.deny = false
  op.failUserinfo = false
  op.tokenClientOverride = undefined
})

async function signIn(p = provider, extra?: Record<string, string>) {
  const ctx = flowContext(p.id)
  const jar = new AppCookies()
  const request = await createAuthorizationRequest(p, ctx, extra)
  jar.apply(request.cookies)
  return { ctx, jar, request }
}

function callback(
  p: OIDCConfig,
  ctx: ReturnType<typeof flowContext>,
  url: URL,
  cookies: Record<string, string | undefined>,
) {
  return handleOAuthCallback(p, ctx, { method: "GET", query: url.searchParams, cookies })
}

describe("OIDC sign-in end to end", () => {
  it("signs in: user from the ID token, account with tokens, check cookies deleted", async () => {
    const { ctx, jar, request } = await signIn()
    const url = new URL(request.url)
    expect(url.origin).toBe(op.issuer)
    expect(url.searchParams.get("code_challenge_method")).toBe("S256")
    expect(url.searchParams.get("scope")).toBe("openid profile email")
    expect(url.searchParams.get("nonce")).toBeTruthy()
    expect(request.cookies.map((c) => c.name).sort()).toEqual([
      "authjs.nonce",
      "authjs.pkce.code_verifier",
      "authjs.state",
    ])
    for (const c of request.cookies) {
      expect(c.options).toMatchObject({ httpOnly: true, sameSite: "lax", path: "/", maxAge: 900 })
    }

    const back = await op.authorize(request.url)
    expect(back.searchParams.get("iss")).toBe(op.issuer)
    const result = await callback(provider, ctx, back, jar.copy())

    expect(result.user).toEqual({
      id: "alice",
      name: "Alice Liddell",
      email: "alice@example.com",
      image: "https://img.example/alice.png",
    })
    expect(result.emailVerified).toBe(true)
    expect(result.account).toMatchObject({
      provider: "oidc",
      type: "oidc",
      providerAccountId: "alice",
      token_type: "bearer",
    })
    expect(typeof result.account.access_token).toBe("string")
    expect(typeof result.account.id_token).toBe("string")
    expect(result.account.expires_at).toBeGreaterThan(Date.now() / 1000)
    expect(result.profile.iss).toBe(op.issuer)
    expect(result.cookies.map((c) => [c.name, c.options.maxAge]).sort()).toEqual([
      ["authjs.nonce", 0],
      ["authjs.pkce.code_verifier", 0],
      ["authjs.state", 0],
    ])
  })

  it("caches discovery: a second sign-in does not fetch the metadata again", async () => {
    clearDiscoveryCache()
    const before = op.hits.get("/.well-known/openid-configuration") ?? 0
    await signIn()
    await signIn()
    expect(op.hits.get("/.well-known/openid-configuration")).toBe(before + 1)
  })

  it("adds query parameters but never lets them override protected ones", async () => {
    const { request } = await signIn(provider, {
      prompt: "login",
      login_hint: "alice@example.com",
      client_id: "evil",
      redirect_uri: "https://evil.example/cb",
      response_type: "token",
      state: "attacker",
      nonce: "attacker",
      code_challenge: "x",
      code_challenge_method: "plain",
      response_mode: "fragment",
      request_uri: "https://evil.example/req",
      callbackUrl: "/dashboard",
    })
    const q = new URL(request.url).searchParams
    expect(q.get("prompt")).toBe("login")
    expect(q.get("login_hint")).toBe("alice@example.com")
    expect(q.get("client_id")).toBe(op.clients.main.id)
    expect(q.get("redirect_uri")).toBe(op.redirectUri("oidc"))
    expect(q.get("response_type")).toBe("code")
    expect(q.get("state")).not.toBe("attacker")
    expect(q.get("nonce")).not.toBe("attacker")
    expect(q.get("code_challenge_method")).toBe("S256")
    expect(q.get("code_challenge")).not.toBe("x")
    expect(q.has("response_mode")).toBe(false)
    expect(q.has("request_uri")).toBe(false)
    expect(q.has("callbackUrl")).toBe(false)
  })

  it("profile from userinfo when idToken is false", async () => {
    const p = OAuth({
      ...provider,
      id: "oidc-userinfo",
      idToken: false,
      type: "oidc",
    }) as OIDCConfig
    const { ctx, jar, request } = await signIn(p)
    const result = await callback(p, ctx, await op.authorize(request.url), jar.copy())
    expect(result.user.email).toBe("alice@example.com")
    expect(result.account.providerAccountId).toBe("alice")
  })
})

describe("OIDC callback refusals", () => {
  it("wrong state parameter → InvalidCheck", async () => {
    const { ctx, jar, request } = await signIn()
    const back = await op.authorize(request.url)
    back.searchParams.set("state", "forged")
    const error = await callback(provider, ctx, back, jar.copy()).catch((e) => e)
    expect(error).toBeInstanceOf(InvalidCheck)
    expect(error.details).toMatchObject({ check: "state", reason: "mismatch" })
  })

  it("missing state cookie → InvalidCheck", async () => {
    const { ctx, jar, request } = await signIn()
    const back = await op.authorize(request.url)
    const cookies = jar.copy()
    delete cookies["authjs.state"]
    const error = await callback(provider, ctx, back, cookies).catch((e) => e)
    expect(error).toBeInstanceOf(InvalidCheck)
    expect(error.details).toMatchObject({ check: "state", reason: "missing" })
  })

  it("replayed callback (same cookies again) → InvalidCheck", async () => {
    const { ctx, jar, request } = await signIn()
    const back = await op.authorize(request.url)
    const cookies = jar.copy()
    await callback(provider, ctx, back, cookies)
    const error = await callback(provider, ctx, back, cookies).catch((e) => e)
    expect(error).toBeInstanceOf(InvalidCheck)
    expect(error.details).toMatchObject({ check: "state", reason: "replayed" })
  })

  it("after success the browser holds no check cookie: replay is refused as missing", async () => {
    const { ctx, jar, request } = await signIn()
    const back = await op.authorize(request.url)
    const result = await callback(provider, ctx, back, jar.copy())
    jar.apply(result.cookies)
    const error = await callback(provider, ctx, back, jar.copy()).catch((e) => e)
    expect(error).toBeInstanceOf(InvalidCheck)
  })

  it("state cookie of another provider → InvalidCheck", async () => {
    const other = OAuth({ ...provider, id: "other", type: "oidc" }) as OIDCConfig
    const { jar, request } = await signIn(other)
    const back = await op.authorize(request.url)
    // The browser comes back to provider "oidc"'s callback with provider "other"'s cookies.
    const error = await callback(provider, flowContext("oidc"), back, jar.copy()).catch((e) => e)
    expect(error).toBeInstanceOf(InvalidCheck)
    expect(error.details).toMatchObject({ reason: "provider-mismatch" })
  })

  it("PKCE verifier cookie missing → InvalidCheck", async () => {
    const { ctx, jar, request } = await signIn()
    const back = await op.authorize(request.url)
    const cookies = jar.copy()
    delete cookies["authjs.pkce.code_verifier"]
    const error = await callback(provider, ctx, back, cookies).catch((e) => e)
    expect(error).toBeInstanceOf(InvalidCheck)
    expect(error.details).toMatchObject({ check: "pkceCodeVerifier" })
  })

  it("nonce mismatch (nonce cookie of an earlier flow) → InvalidCheck", async () => {
    const first = await signIn()
    const { ctx, jar, request } = await signIn()
    const back = await op.authorize(request.url)
    const cookies = { ...jar.copy(), "authjs.nonce": first.jar.values["authjs.nonce"] }
    const error = await callback(provider, ctx, back, cookies).catch((e) => e)
    expect(error).toBeInstanceOf(InvalidCheck)
    expect(error.details).toMatchObject({ check: "nonce", reason: "mismatch" })
  })

  it("a nonce cookie sealed with the wrong secret → InvalidCheck", async () => {
    const { ctx, jar, request } = await signIn()
    const back = await op.authorize(request.url)
    const forged = await encode({
      token: { value: "x", provider: "oidc" },
      secret: "another-secret-another-secret-another-secret",
      salt: "authjs.nonce",
    })
    const error = await callback(provider, ctx, back, {
      ...jar.copy(),
      "authjs.nonce": forged,
    }).catch((e) => e)
    expect(error).toBeInstanceOf(InvalidCheck)
    expect(error.details).toMatchObject({ check: "nonce", reason: "invalid" })
  })

  it("ID token issued for another client (audience) → OAuthCallbackError", async () => {
    const { ctx, jar, request } = await signIn()
    // The code is issued to the other client (same redirect URI), and the token endpoint
    // answers as that client: the ID token's aud is "other-app", not ours.
    const url = new URL(request.url)
    url.searchParams.set("client_id", op.clients.other.id)
    const back = await op.authorize(url.href)
    op.tokenClientOverride = op.clients.other
    const error = await callback(provider, ctx, back, jar.copy()).catch((e) => e)
    expect(error).toBeInstanceOf(OAuthCallbackError)
    expect(error.details).toMatchObject({
      step: "token",
      code: "OAUTH_JWT_CLAIM_COMPARISON_FAILED",
    })
    expect(String(error.details.reason)).toContain('"aud"')
  })

  it("provider error=access_denied → OAuthCallbackError with the code, no secrets", async () => {
    op.deny = true
    const { ctx, jar, request } = await signIn()
    const back = await op.authorize(request.url)
    expect(back.searchParams.get("error")).toBe("access_denied")
    const error = await callback(provider, ctx, back, jar.copy()).catch((e) => e)
    expect(error).toBeInstanceOf(OAuthCallbackError)
    expect(error.kind).toBe("signIn")
    expect(error.details).toMatchObject({
      provider: "oidc",
      step: "authorization",
      error: "access_denied",
    })
    expect(error.cause).toBeUndefined()
  })

  it("userinfo failure → OAuthCallbackError (status kept, body not parsed)", async () => {
    const p = OAuth({
      ...provider,
      id: "oidc-userinfo",
      idToken: false,
      type: "oidc",
    }) as OIDCConfig
    const { ctx, jar, request } = await signIn(p)
    const back = await op.authorize(request.url)
    op.failUserinfo = true
    const error = await callback(p, ctx, back, jar.copy()).catch((e) => e)
    expect(error).toBeInstanceOf(OAuthCallbackError)
    expect(error.details).toMatchObject({ step: "userinfo", status: 500 })
  })

  it("a used code is refused by the provider → OAuthCallbackError (invalid_grant)", async () => {
    const { ctx, jar, request } = await signIn()
    const back = await op.authorize(request.url)
    await callback(provider, ctx, back, jar.copy())
    // A second flow's cookies, but the first flow's (used) code and a matching state.
    const again = await signIn()
    const replay = new URL(back)
    replay.searchParams.set("state", new URL(again.request.url).searchParams.get("state")!)
    const error = await callback(provider, again.ctx, replay, again.jar.copy()).catch((e) => e)
    expect(error).toBeInstanceOf(OAuthCallbackError)
    expect(error.details).toMatchObject({ step: "token", error: "invalid_grant" })
  })

  it("no error message or detail carries a code, token, verifier or secret", async () => {
    op.deny = false
    const { ctx, jar, request } = await signIn()
    const back = await op.authorize(request.url)
    op.tokenClientOverride = { id: op.clients.main.id, secret: "wrong" }
    const error = await callback(provider, ctx, back, jar.copy()).catch((e) => e)
    const text = `${error.message} ${JSON.stringify(error.details)}`
    for (const secret of [
      back.searchParams.get("code")!,
      op.clients.main.secret,
      SECRET,
      ...Object.values(jar.values),
    ]) {
      expect(text).not.toContain(secret)
    }
  })
})
