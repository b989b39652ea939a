/** The per-IP limit's client IP: proxy headers first, then the connection the framework reported. */
import { describe, expect, it } from "vitest"
import { defaultClientIp, setConnectionIp } from "../../src/lib/rate-limit/client-ip.js"

describe("defaultClientIp", () => {
  it("uses the connection's address when no proxy header is there", () => {
    const request = new Request("http://app.example.com/auth/callback/password")
    expect(defaultClientIp(request)).toBeUndefined()
    setConnectionIp(request, "203.0.113.9")
    expect(defaultClientIp(request)).toBe("203.0.113.9")
    // Only that Request object: a header cannot set it, another request does not share it.
    expect(defaultClientIp(new Request(request.url))).toBeUndefined()
  })

  it("prefers the proxy's X-Forwarded-For entry over the connection (the proxy's own address)", () => {
    const request = new Request("http://app.example.com/", {
      headers: { "x-forwarded-for": "198.51.100.7" },
    })
    setConnectionIp(request, "10.0.0.2")
    expect(defaultClientIp(request)).toBe("198.51.100.7")
  })
})
