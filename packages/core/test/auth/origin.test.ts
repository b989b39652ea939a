import fc from "fast-check"
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
    name: "untrusted, but made straight to localhost (npm run dev / preview)",
    url: "http://localhost:4173/auth/session",
    trustHost: false,
    expected: "http://localhost:4173",
  },
  {
    name: "untrusted, straight to 127.0.0.1",
    url: "http://127.0.0.1:8788/auth/session",
    trustHost: false,
    expected: "http://127.0.0.1:8788",
  },
  {
    name: "untrusted, straight to [::1]",
    url: "http://[::1]:3000/auth/session",
    trustHost: false,
    expected: "http://[::1]:3000",
  },
  {
    name: "untrusted, a subdomain of localhost",
    url: "http://app.localhost:5173/auth/session",
    trustHost: false,
    expected: "http://app.localhost:5173",
  },
  {
    name: "untrusted loopback never takes a forwarded host",
    url: "http://localhost:3000/auth/session",
    headers: { "x-forwarded-host": "evil.test" },
    trustHost: false,
    expected: "UntrustedHost",
  },
  {
    name: "untrusted loopback behind a proxy (X-Forwarded-For) is not trusted",
    url: "http://localhost:3000/auth/session",
    headers: { "x-forwarded-for": "203.0.113.7" },
    trustHost: false,
    expected: "UntrustedHost",
  },
  {
    name: "untrusted loopback behind a proxy (Forwarded) is not trusted",
    url: "http://127.0.0.1:3000/auth/session",
    headers: { forwarded: "for=203.0.113.7;host=evil.test" },
    trustHost: false,
    expected: "UntrustedHost",
  },
  {
    name: "untrusted: names that only look local are not loopback",
    url: "http://localhost.evil.test/auth/session",
    trustHost: false,
    expected: "UntrustedHost",
  },
  {
    name: "untrusted: 127.0.0.1 as a subdomain is not loopback",
    url: "http://127.0.0.1.evil.test/auth/session",
    trustHost: false,
    expected: "UntrustedHost",
  },
  {
    name: "untrusted: a private address is not loopback",
    url: "http://10.0.0.5:3000/auth/session",
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

  it("without trust or AUTH_URL, no host but a loopback one is taken (property)", () => {
    fc.assert(
      fc.property(fc.domain(), fc.integer({ min: 1, max: 65535 }), (domain, port) => {
        fc.pre(domain !== "localhost" && !domain.endsWith(".localhost"))
        const result = resolveOrigin(new Request(`http://${domain}:${port}/auth/session`), {
          url: undefined,
          trustHost: false,
        })
        expect("error" in result && result.error.type).toBe("UntrustedHost")
      }),
    )
  })

  it("Auth() on localhost without trust or AUTH_URL answers, and its links stay on localhost", async () => {
    const res = await Auth(
      new Request("http://localhost:4173/auth/signin"),
      makeConfig({ trustHost: false }),
    )
    expect(res.status).toBe(200)
    expect(await res.text()).toContain('action="http://localhost:4173/auth/')
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
