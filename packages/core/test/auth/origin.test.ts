import { describe, expect, it } from "vitest"
import { Auth } from "../../src/index.js"
import { resolveOrigin } from "../../src/kernel/urls/origin.js"
import { makeConfig, req, setCookies, signInWithCredentials } from "./helpers.js"

type Row = {
  name: string
  url: string
  headers?: Record<string, string>
  authUrl?: string
  trustHost: boolean
  expected: string | "UntrustedHost"
}

const table: Row[] = [
  {
    name: "AUTH_URL wins over everything",
    url: "http://evil.test/auth/session",
    headers: { "x-forwarded-host": "evil2.test", "x-forwarded-proto": "http" },
    authUrl: "https://app.example.com/auth",
    trustHost: true,
    expected: "https://app.example.com",
  },
  {
    name: "AUTH_URL without trustHost",
    url: "http://evil.test/auth/session",
    authUrl: "https://app.example.com",
    trustHost: false,
    expected: "https://app.example.com",
  },
  {
    name: "untrusted host, no AUTH_URL",
    url: "http://evil.test/auth/session",
    trustHost: false,
    expected: "UntrustedHost",
  },
  {
    name: "untrusted host ignores forwarded headers",
    url: "http://evil.test/auth/session",
    headers: { "x-forwarded-host": "app.example.com" },
    trustHost: false,
    expected: "UntrustedHost",
  },
  {
    name: "trusted: request URL",
    url: "http://localhost:5173/auth/session",
    trustHost: true,
    expected: "http://localhost:5173",
  },
  {
    name: "trusted: forwarded host and proto",
    url: "http://10.0.0.5:3000/auth/session",
    headers: { "x-forwarded-host": "app.example.com", "x-forwarded-proto": "https" },
    trustHost: true,
    expected: "https://app.example.com",
  },
  {
    name: "trusted: first of a forwarded list",
    url: "http://10.0.0.5/auth/session",
    headers: {
      "x-forwarded-host": "app.example.com, proxy.internal",
      "x-forwarded-proto": "https, http",
    },
    trustHost: true,
    expected: "https://app.example.com",
  },
  {
    name: "trusted: forwarded proto only",
    url: "http://app.example.com/auth/session",
    headers: { "x-forwarded-proto": "https" },
    trustHost: true,
    expected: "https://app.example.com",
  },
  {
    name: "trusted: bogus proto ignored",
    url: "http://app.example.com/auth/session",
    headers: { "x-forwarded-proto": "javascript" },
    trustHost: true,
    expected: "http://app.example.com",
  },
  {
    name: "trusted: host with userinfo/path ignored",
    url: "http://app.example.com/auth/session",
    headers: { "x-forwarded-host": "evil.test/@x" },
    trustHost: true,
    expected: "http://app.example.com",
  },
  {
    name: "trusted: host with port",
    url: "http://10.0.0.5/auth/session",
    headers: { "x-forwarded-host": "app.example.com:8443", "x-forwarded-proto": "https" },
    trustHost: true,
    expected: "https://app.example.com:8443",
  },
]

describe("origin resolution", () => {
  it.each(table)("$name", (row) => {
    const result = resolveOrigin(new Request(row.url, { headers: row.headers }), {
      url: row.authUrl ? new URL(row.authUrl) : undefined,
      trustHost: row.trustHost,
    })
    if (row.expected === "UntrustedHost") {
      expect("error" in result && result.error.type).toBe("UntrustedHost")
    } else {
      expect("origin" in result && result.origin).toBe(row.expected)
    }
  })

  it("Auth() answers a typed UntrustedHost without trust or AUTH_URL", async () => {
    const res = await Auth(req("/auth/session"), makeConfig({ trustHost: false }))
    expect(res.status).toBe(500)
    const body = (await res.json()) as { error: { type: string; message: string } }
    expect(body.error.type).toBe("UntrustedHost")
    expect(body.error.message).toContain("AUTH_URL")
  })

  it("with AUTH_URL, redirects use it whatever Host says, and secure cookies follow its protocol", async () => {
    const config = makeConfig({ trustHost: false, url: "https://app.example.com/auth" })
    const { res } = await signInWithCredentials(
      Auth,
      config,
      undefined,
      undefined,
      "http://evil.test",
    )
    expect(res.headers.get("location")).toBe("https://app.example.com")
    expect(setCookies(res).map((c) => c.name)).toContain("__Secure-authjs.session-token")
  })

  it("behind a trusted TLS proxy, cookies are secure", async () => {
    const res = await Auth(
      req("/auth/csrf", { headers: { "x-forwarded-proto": "https" } }),
      makeConfig({ trustHost: true }),
    )
    expect(setCookies(res)[0]!.name).toBe("__Host-authjs.csrf-token")
  })
})
