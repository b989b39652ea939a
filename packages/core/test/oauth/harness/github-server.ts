/**
 * A loopback OAuth 2 server in the shape of GitHub's API: `/login/oauth/authorize`,
 * `/login/oauth/access_token`, `/user`, `/user/emails`. It checks what GitHub checks (client
 * credentials, code binding, PKCE S256) and lets a test choose what `/user` and `/user/emails`
 * return.
 */
import { createHash, randomBytes } from "node:crypto"
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http"
import type { AddressInfo } from "node:net"

export interface GitHubEmail {
  email: string
  primary: boolean
  verified: boolean
  visibility: "public" | "private" | null
}

export interface GitHubHarness {
  origin: string
  clientId: string
  clientSecret: string
  /** What `/user` returns (GitHub's documented shape). */
  user: Record<string, unknown>
  /** What `/user/emails` returns, or an HTTP status to fail with. */
  emails: GitHubEmail[] | number
  /** Status of `/user` (200 unless a test breaks it). */
  userStatus: number
  /** Last token request's body and headers, to check what the client sent. */
  lastTokenRequest: { body: URLSearchParams; authorization: string | undefined } | undefined
  emailsCalls: number
  /** Follow the authorization URL to the app's callback URL. */
  authorize(url: string): Promise<URL>
  close(): Promise<void>
}

interface Grant {
  redirectUri: string
  challenge: string
  method: string
  scope: string
}

export async function startGitHubServer(): Promise<GitHubHarness> {
  const server: Server = createServer()
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve))
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  const codes = new Map<string, Grant>()
  const tokens = new Set<string>()

  const harness: GitHubHarness = {
    origin,
    clientId: "Iv1.loopbackclient",
    clientSecret: "gh-loopback-secret-0123456789",
    user: {},
    emails: [],
    userStatus: 200,
    lastTokenRequest: undefined,
    emailsCalls: 0,
    async authorize(url) {
      const response = await fetch(url, { redirect: "manual" })
      await response.body?.cancel()
      const location = response.headers.get("location")
      if (!location) throw new Error(`authorize failed: ${response.status}`)
      return new URL(location)
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }

  function json(res: ServerResponse, status: number, body: unknown) {
    res.statusCode = status
    res.setHeader("content-type", "application/json; charset=utf-8")
    res.end(JSON.stringify(body))
  }

  function bearer(req: IncomingMessage): boolean {
    const auth = req.headers.authorization ?? ""
    const [scheme, token] = auth.split(" ")
    // GitHub accepts "token" and "Bearer"; it refuses requests without a User-Agent.
    return (scheme === "Bearer" || scheme === "token") && tokens.has(token ?? "")
  }

  async function readBody(req: IncomingMessage): Promise<URLSearchParams> {
    const chunks: Buffer[] = []
    for await (const chunk of req) chunks.push(chunk as Buffer)
    return new URLSearchParams(Buffer.concat(chunks).toString("utf8"))
  }

  server.on("request", async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", origin)
    if (url.pathname === "/login/oauth/authorize") {
      const q = url.searchParams
      if (q.get("client_id") !== harness.clientId) return json(res, 400, { error: "bad client" })
      const redirect = new URL(q.get("redirect_uri")!)
      const code = randomBytes(10).toString("hex")
      codes.set(code, {
        redirectUri: q.get("redirect_uri")!,
        challenge: q.get("code_challenge") ?? "",
        method: q.get("code_challenge_method") ?? "",
        scope: q.get("scope") ?? "",
      })
      redirect.searchParams.set("code", code)
      if (q.get("state")) redirect.searchParams.set("state", q.get("state")!)
      res.statusCode = 302
      res.setHeader("location", redirect.href)
      return res.end()
    }
    if (url.pathname === "/login/oauth/access_token" && req.method === "POST") {
      const body = await readBody(req)
      harness.lastTokenRequest = { body, authorization: req.headers.authorization }
      let id = body.get("client_id")
      let secret = body.get("client_secret")
      const auth = req.headers.authorization
      if (auth?.startsWith("Basic ")) {
        const decoded = Buffer.from(auth.slice(6), "base64").toString("utf8")
        const at = decoded.indexOf(":")
        id = decodeURIComponent(decoded.slice(0, at).replace(/\+/g, " "))
        secret = decodeURIComponent(decoded.slice(at + 1).replace(/\+/g, " "))
      }
      if (id !== harness.clientId || secret !== harness.clientSecret) {
        return json(res, 401, { error: "incorrect_client_credentials" })
      }
      const grant = codes.get(body.get("code") ?? "")
      codes.delete(body.get("code") ?? "")
      if (!grant || grant.redirectUri !== body.get("redirect_uri")) {
        return json(res, 400, { error: "bad_verification_code" })
      }
      const verifier = body.get("code_verifier") ?? ""
      const expected = createHash("sha256").update(verifier).digest("base64url")
      if (grant.method !== "S256" || grant.challenge !== expected) {
        return json(res, 400, { error: "invalid_grant", error_description: "PKCE failed" })
      }
      const token = `gho_${randomBytes(16).toString("hex")}`
      tokens.add(token)
      return json(res, 200, {
        access_token: token,
        token_type: "bearer",
        scope: grant.scope.replace(/ /g, ","),
      })
    }
    if (url.pathname === "/user") {
      if (!req.headers["user-agent"]) return json(res, 403, { message: "User-Agent required" })
      if (!bearer(req)) return json(res, 401, { message: "Bad credentials" })
      if (harness.userStatus !== 200) return json(res, harness.userStatus, { message: "nope" })
      return json(res, 200, harness.user)
    }
    if (url.pathname === "/user/emails") {
      harness.emailsCalls++
      if (!bearer(req)) return json(res, 401, { message: "Bad credentials" })
      if (typeof harness.emails === "number") return json(res, harness.emails, { message: "nope" })
      return json(res, 200, harness.emails)
    }
    json(res, 404, { message: "Not Found" })
  })
  return harness
}
