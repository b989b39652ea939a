/**
 * A real OpenID Provider (`oidc-provider`, OpenID-certified) on 127.0.0.1 with a random port,
 * for end-to-end tests of the OAuth flow. Login and consent are done by code through the
 * interaction API (devInteractions off): whoever reaches `/interaction/<uid>` is logged in as
 * `harness.accountId`, or refused when `harness.deny` is set. Knobs let a test break one thing:
 * a failing userinfo endpoint, or a token endpoint that answers as another client.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"
import { exportJWK, generateKeyPair } from "jose"
import Provider from "oidc-provider"
import { CookieJar } from "./cookie-jar.js"

export interface TestAccount {
  sub: string
  email: string
  email_verified: boolean
  name: string
  picture: string
}

export interface OidcHarness {
  issuer: string
  /** Where the provider sends the browser back (never actually served). */
  redirectUri: (providerId: string) => string
  clients: { main: { id: string; secret: string }; other: { id: string; secret: string } }
  accounts: Map<string, TestAccount>
  accountId: string
  /** Refuse at the interaction (`error=access_denied`). */
  deny: boolean
  /** `/me` answers 500. */
  failUserinfo: boolean
  /** The token endpoint authenticates the request as this client instead. */
  tokenClientOverride: { id: string; secret: string } | undefined
  /** Issue a refresh token with every code exchange (no `offline_access` needed). */
  issueRefreshTokens: boolean
  /** Each refresh spends the refresh token and returns a new one (rotation). */
  rotateRefreshTokens: boolean
  /** Lifetime of access tokens, in seconds. */
  accessTokenTtl: number
  /** Delay every token endpoint answer by this many ms (timeouts). */
  tokenDelayMs: number
  /** `/token` answers 503 with an HTML page, as an overloaded proxy does. */
  failToken: boolean
  /** Make a refresh token (and the grant behind it) unusable, as a user revoking access does. */
  revokeRefreshToken(token: string): Promise<void>
  /** Requests seen, by path (for "no discovery refetch" assertions). */
  hits: Map<string, number>
  /** Follow an authorization URL through login and consent to the redirect back to the app. */
  authorize(url: string): Promise<URL>
  /** Same for `response_mode=form_post`: the auto-submitted form's target and fields. */
  authorizeFormPost(url: string): Promise<{ action: URL; body: URLSearchParams }>
  close(): Promise<void>
}

function decodeHtml(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#x2F;/g, "/")
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
}

export const APP_ORIGIN = "http://127.0.0.1:3999"

export async function startOidcServer(): Promise<OidcHarness> {
  const server: Server = createServer()
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const port = (server.address() as AddressInfo).port
  const issuer = `http://127.0.0.1:${port}`

  const { privateKey } = await generateKeyPair("RS256", { extractable: true })
  const jwk = { ...(await exportJWK(privateKey)), kid: "test-key", alg: "RS256", use: "sig" }

  const redirectUri = (providerId: string) => `${APP_ORIGIN}/auth/callback/${providerId}`
  const redirect_uris = ["oidc", "oidc-userinfo", "oidc-form", "other"].map(redirectUri)
  const clients = {
    main: { id: "latchkey-app", secret: "main-client-secret-0123456789" },
    other: { id: "other-app", secret: "other-client-secret-0123456789" },
  }
  const accounts = new Map<string, TestAccount>([
    [
      "alice",
      {
        sub: "alice",
        email: "Alice@Example.COM",
        email_verified: true,
        name: "Alice Liddell",
        picture: "https://img.example/alice.png",
      },
    ],
  ])

  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clients.main.id,
        client_secret: clients.main.secret,
        redirect_uris,
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
      {
        client_id: clients.other.id,
        client_secret: clients.other.secret,
        redirect_uris,
        grant_types: ["authorization_code"],
        response_types: ["code"],
        token_endpoint_auth_method: "client_secret_basic",
      },
    ],
    jwks: { keys: [jwk] },
    cookies: { keys: ["harness-cookie-key-0123456789"] },
    features: { devInteractions: { enabled: false } },
    // Put email/profile claims into the ID token, as Google and most IdPs do.
    conformIdTokenClaims: false,
    claims: {
      openid: ["sub"],
      email: ["email", "email_verified"],
      profile: ["name", "picture"],
    },
    // Read through `harness` at each request, so a test can change them.
    issueRefreshToken: async () => harness.issueRefreshTokens,
    rotateRefreshToken: () => harness.rotateRefreshTokens,
    ttl: {
      AccessToken: () => harness.accessTokenTtl,
      RefreshToken: () => 24 * 60 * 60,
    },
    interactions: {
      url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}`,
    },
    findAccount: async (_ctx: unknown, id: string) => {
      const account = accounts.get(id)
      if (!account) return undefined
      return { accountId: id, claims: async () => ({ ...account }) }
    },
  })
  const callback = provider.callback()

  const harness: OidcHarness = {
    issuer,
    redirectUri,
    clients,
    accounts,
    accountId: "alice",
    deny: false,
    failUserinfo: false,
    tokenClientOverride: undefined,
    issueRefreshTokens: false,
    rotateRefreshTokens: false,
    accessTokenTtl: 3600,
    tokenDelayMs: 0,
    failToken: false,
    async revokeRefreshToken(token) {
      const found = await provider.RefreshToken.find(token)
      await found?.destroy()
    },
    hits: new Map(),
    async authorize(url) {
      const end = await follow(url)
      if (end instanceof URL) return end
      throw new Error("the provider answered with a form, not a redirect")
    },
    async authorizeFormPost(url) {
      const end = await follow(url)
      if (end instanceof URL) throw new Error("the provider redirected instead of posting a form")
      return end
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }

  async function follow(url: string): Promise<URL | { action: URL; body: URLSearchParams }> {
    const jar = new CookieJar()
    let next = new URL(url)
    for (let i = 0; i < 10; i++) {
      if (next.origin === APP_ORIGIN) return next
      const response = await fetch(next, { redirect: "manual", headers: { cookie: jar.header() } })
      jar.store(response)
      const location = response.headers.get("location")
      if (!location && response.status === 200) {
        // form_post: an HTML page with an auto-submitting form of hidden inputs.
        const html = await response.text()
        const action = /<form[^>]*action="([^"]+)"/.exec(html)?.[1]
        if (!action) throw new Error("no form in the provider's answer")
        const body = new URLSearchParams()
        for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g)) {
          body.set(m[1]!, decodeHtml(m[2]!))
        }
        return { action: new URL(decodeHtml(action)), body }
      }
      await response.body?.cancel()
      if (!location) throw new Error(`no redirect from ${next.pathname}: ${response.status}`)
      next = new URL(location, next)
    }
    throw new Error("too many redirects")
  }

  async function interaction(req: IncomingMessage, res: ServerResponse) {
    const details = await provider.interactionDetails(req, res)
    const { prompt, params, session } = details
    if (harness.deny) {
      return provider.interactionFinished(
        req,
        res,
        { error: "access_denied", error_description: "The user said no" },
        { mergeWithLastSubmission: false },
      )
    }
    if (prompt.name === "login") {
      return provider.interactionFinished(
        req,
        res,
        { login: { accountId: harness.accountId } },
        { mergeWithLastSubmission: false },
      )
    }
    const grant = details.grantId
      ? await provider.Grant.find(details.grantId)
      : new provider.Grant({ accountId: session.accountId, clientId: params.client_id })
    const missing = prompt.details
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(" "))
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims)
    for (const [indicator, scopes] of Object.entries(missing.missingResourceScopes ?? {})) {
      grant.addResourceScope(indicator, (scopes as string[]).join(" "))
    }
    const grantId = await grant.save()
    return provider.interactionFinished(
      req,
      res,
      { consent: { grantId } },
      { mergeWithLastSubmission: true },
    )
  }

  server.on("request", (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? "/").split("?")[0]!
    harness.hits.set(path, (harness.hits.get(path) ?? 0) + 1)
    if (path.startsWith("/interaction/")) {
      interaction(req, res).catch((error: unknown) => {
        res.statusCode = 500
        res.end(String(error))
      })
      return
    }
    if (path === "/me" && harness.failUserinfo) {
      res.statusCode = 500
      res.setHeader("content-type", "text/html")
      res.end("<h1>upstream exploded</h1>")
      return
    }
    if (path === "/token" && harness.failToken) {
      res.statusCode = 503
      res.setHeader("content-type", "text/html")
      res.end("<h1>upstream unavailable</h1>")
      return
    }
    if (path === "/token" && harness.tokenDelayMs > 0) {
      const delay = harness.tokenDelayMs
      setTimeout(() => {
        if (!res.destroyed) callback(req, res)
      }, delay)
      return
    }
    if (path === "/token" && harness.tokenClientOverride) {
      const { id, secret } = harness.tokenClientOverride
      req.headers.authorization = `Basic ${Buffer.from(`${id}:${secret}`).toString("base64")}`
    }
    callback(req, res)
  })
  return harness
}
