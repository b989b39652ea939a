/**
 * The GitHub preset against a loopback server in the shape of GitHub's API: plain OAuth 2
 * (no ID token), userinfo by a custom request, and the `/user/emails` edge cases.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest"
import { createAuthorizationRequest } from "../../src/features/oauth/authorization-url.js"
import { handleOAuthCallback } from "../../src/features/oauth/callback.js"
import { OAuthCallbackError } from "../../src/kernel/errors/errors.js"
import GitHub, { pickGitHubEmail } from "../../src/providers/github.js"
import { AppCookies, flowContext } from "./harness/flow.js"
import { type GitHubHarness, startGitHubServer } from "./harness/github-server.js"

let gh: GitHubHarness

const octocat = {
  login: "octocat",
  id: 1,
  node_id: "MDQ6VXNlcjE=",
  avatar_url: "https://github.com/images/error/octocat_happy.gif",
  name: "monalisa octocat",
  email: null as string | null,
}

beforeAll(async () => {
  gh = await startGitHubServer()
})
afterAll(() => gh.close())
beforeEach(() => {
  gh.user = { ...octocat }
  gh.emails = []
  gh.userStatus = 200
})

function provider(overrides: Parameters<typeof GitHub>[0] = {}) {
  return GitHub({
    clientId: gh.clientId,
    clientSecret: gh.clientSecret,
    authorization: `${gh.origin}/login/oauth/authorize`,
    token: `${gh.origin}/login/oauth/access_token`,
    userinfo: `${gh.origin}/user`,
    ...overrides,
  })
}

async function signInWith(p = provider()) {
  const ctx = flowContext("github")
  const jar = new AppCookies()
  const request = await createAuthorizationRequest(p, ctx)
  jar.apply(request.cookies)
  const back = await gh.authorize(request.url)
  return handleOAuthCallback(p, ctx, {
    method: "GET",
    query: back.searchParams,
    cookies: jar.copy(),
  })
}

describe("GitHub preset against a GitHub-shaped server", () => {
  it("authorization URL: endpoint override keeps the preset's scope, PKCE S256, no nonce", async () => {
    const request = await createAuthorizationRequest(provider(), flowContext("github"))
    const q = new URL(request.url).searchParams
    expect(request.url.startsWith(`${gh.origin}/login/oauth/authorize?`)).toBe(true)
    expect(q.get("scope")).toBe("read:user user:email")
    expect(q.get("code_challenge_method")).toBe("S256")
    expect(q.has("nonce")).toBe(false)
    expect(request.cookies.map((c) => c.name).sort()).toEqual([
      "authjs.pkce.code_verifier",
      "authjs.state",
    ])
  })

  it("public verified email: used as is, reported verified", async () => {
    gh.user = { ...octocat, email: "Octocat@GitHub.com" }
    gh.emails = [
      { email: "octocat@github.com", primary: true, verified: true, visibility: "public" },
    ]
    const result = await signInWith()
    expect(result.user).toEqual({
      id: "1",
      name: "monalisa octocat",
      email: "octocat@github.com",
      image: "https://github.com/images/error/octocat_happy.gif",
    })
    expect(result.emailVerified).toBe(true)
    expect(result.account).toMatchObject({
      provider: "github",
      type: "oauth",
      providerAccountId: "1",
      token_type: "bearer",
    })
    // client_secret_basic by default; PKCE verifier sent to the token endpoint.
    expect(gh.lastTokenRequest?.authorization?.startsWith("Basic ")).toBe(true)
    expect(gh.lastTokenRequest?.body.get("code_verifier")).toBeTruthy()
    expect(gh.lastTokenRequest?.body.has("client_secret")).toBe(false)
  })

  it("no public email: the primary verified address", async () => {
    gh.emails = [
      { email: "other@example.com", primary: false, verified: true, visibility: null },
      { email: "primary@example.com", primary: true, verified: true, visibility: "private" },
    ]
    const result = await signInWith()
    expect(result.user.email).toBe("primary@example.com")
    expect(result.emailVerified).toBe(true)
  })

  it("no public email, primary unverified: no email at all (never an unverified fallback)", async () => {
    gh.emails = [
      { email: "primary@example.com", primary: true, verified: false, visibility: "private" },
      {
        email: "verified-but-secondary@example.com",
        primary: false,
        verified: true,
        visibility: null,
      },
    ]
    const result = await signInWith()
    expect(result.user.email).toBeNull()
    expect(result.emailVerified).toBe(false)
  })

  it("empty email list: no email, no crash", async () => {
    gh.emails = []
    const result = await signInWith()
    expect(result.user.email).toBeNull()
    expect(result.user.name).toBe("monalisa octocat")
  })

  it("/user/emails forbidden (no user:email scope): public email kept but unverified", async () => {
    gh.user = { ...octocat, email: "octocat@github.com" }
    gh.emails = 403
    const result = await signInWith()
    expect(result.user.email).toBe("octocat@github.com")
    expect(result.emailVerified).toBe(false)
  })

  it("public email GitHub does not list as verified: kept, unverified", async () => {
    gh.user = { ...octocat, email: "octocat@github.com" }
    gh.emails = [
      { email: "octocat@github.com", primary: true, verified: false, visibility: "public" },
    ]
    const result = await signInWith()
    expect(result.emailVerified).toBe(false)
  })

  it("name falls back to the login", async () => {
    gh.user = { ...octocat, name: null }
    const result = await signInWith()
    expect(result.user.name).toBe("octocat")
  })

  it("/user failing → OAuthCallbackError at the userinfo step", async () => {
    gh.userStatus = 502
    const error = await signInWith().catch((e) => e)
    expect(error).toBeInstanceOf(OAuthCallbackError)
    expect(error.details).toMatchObject({ provider: "github", step: "userinfo" })
  })

  it("wrong client secret → OAuthCallbackError at the token step, secret not in the error", async () => {
    const error = await signInWith(provider({ clientSecret: "wrong-secret-value" })).catch((e) => e)
    expect(error).toBeInstanceOf(OAuthCallbackError)
    expect(error.details).toMatchObject({ step: "token", error: "incorrect_client_credentials" })
    expect(JSON.stringify(error.details) + error.message).not.toContain("wrong-secret-value")
  })

  it("client_secret_post sends the secret in the body", async () => {
    await signInWith(provider({ client: { token_endpoint_auth_method: "client_secret_post" } }))
    expect(gh.lastTokenRequest?.body.get("client_secret")).toBe(gh.clientSecret)
    expect(gh.lastTokenRequest?.authorization).toBeUndefined()
  })
})

describe("pickGitHubEmail", () => {
  it("handles a null list", () => {
    expect(pickGitHubEmail(null, null)).toEqual({ email: null, verified: false })
  })
})
