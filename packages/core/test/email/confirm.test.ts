import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { renderEmailConfirmation } from "../../src/features/email/confirm.js"
import { requestEmailSignIn } from "../../src/features/email/request.js"
import { verifyEmailSignIn } from "../../src/features/email/verify.js"
import { Verification } from "../../src/kernel/errors/errors.js"
import { capturingProvider, linkParams, requestParams, SECRET, stampOf } from "./helpers.js"

const actionUrl = "https://app.example.com/auth/callback/email"

/** `name → value` of the page's hidden inputs, entity-decoded. */
function hiddenInputs(html: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const m of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)) {
    out[m[1]!] = m[2]!
      .replace(/&quot;/g, '"')
      .replace(/&#39;/g, "'")
      .replace(/&lt;/g, "<")
      .replace(/&gt;/g, ">")
      .replace(/&amp;/g, "&")
  }
  return out
}

describe("renderEmailConfirmation", () => {
  const base = {
    actionUrl,
    token: "tok_abc-123",
    email: "ann@example.com",
    callbackUrl: "https://app.example.com/dashboard",
    csrfToken: "csrf123",
    theme: {},
  }

  it("renders a POST form carrying token, email, callbackUrl and CSRF token", () => {
    const page = renderEmailConfirmation(base)
    expect(page.status).toBe(200)
    expect(page.html).toContain(`<form action="${actionUrl}" method="post">`)
    expect(hiddenInputs(page.html)).toEqual({
      token: "tok_abc-123",
      email: "ann@example.com",
      callbackUrl: "https://app.example.com/dashboard",
      csrfToken: "csrf123",
    })
    expect(page.html).toContain("<strong>ann@example.com</strong>")
    expect(page.headers).toMatchObject({
      "Referrer-Policy": "strict-origin",
      "Cache-Control": expect.stringContaining("no-store"),
    })
  })

  it("loads nothing from elsewhere (the URL carries the token): no logo", () => {
    const page = renderEmailConfirmation({
      ...base,
      theme: { logo: "https://cdn.example/logo.png" },
    })
    expect(page.html).not.toContain("cdn.example")
    expect(page.html).not.toMatch(/<(img|script|link)\b/)
  })

  it("escapes every value", () => {
    const evil = '"><script>alert(1)</script>'
    const page = renderEmailConfirmation({
      ...base,
      email: `a${evil}@b.c`,
      callbackUrl: evil,
      token: evil,
    })
    expect(page.html).not.toContain("<script>")
    expect(hiddenInputs(page.html)).toMatchObject({ token: evil, callbackUrl: evil })
  })

  it("omits an empty CSRF token and a missing callbackUrl", () => {
    const page = renderEmailConfirmation({ ...base, csrfToken: "", callbackUrl: undefined })
    expect(Object.keys(hiddenInputs(page.html))).toEqual(["token", "email"])
  })

  it.each([
    [{ token: undefined }],
    [{ token: "" }],
    [{ token: ["a", "b"] }],
    [{ token: "x".repeat(513) }],
    [{ email: undefined }],
    [{ email: "" }],
  ])("throws Verification for a link without a usable token/email: %j", (override) => {
    expect(() => renderEmailConfirmation({ ...base, ...override })).toThrow(Verification)
  })

  it("rendering (a scanner's GET) never consumes the token; the POST does", async () => {
    const adapter = MemoryAdapter()
    const { provider, sent } = capturingProvider()
    await requestEmailSignIn(requestParams(provider, adapter))
    const link = linkParams(sent[0]!.url)
    for (let i = 0; i < 3; i++) {
      renderEmailConfirmation({ ...base, ...link })
    }
    const posted = hiddenInputs(renderEmailConfirmation({ ...base, ...link }).html)
    await expect(
      verifyEmailSignIn({
        stampOf,
        provider,
        adapter,
        secret: SECRET,
        token: posted.token,
        email: posted.email,
      }),
    ).resolves.toMatchObject({ isNewUser: true })
  })
})
