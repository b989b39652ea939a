import { describe, expect, it } from "vitest"
import {
  renderErrorPage,
  renderSignOutPage,
  renderVerifyRequestPage,
} from "../../src/kernel/pages/index.js"
import { assertInert, forms, hidden, textOf, tokenize } from "./html.js"

const signInUrl = "https://app.example.com/auth/signin"
const homeUrl = "https://app.example.com"

const links = (html: string) =>
  tokenize(html)
    .tags.filter((t) => t.name === "a" && !t.closing)
    .map((t) => t.attrs.get("href"))

describe("sign-out page", () => {
  const page = renderSignOutPage({
    csrfToken: "tok",
    actionUrl: "https://app.example.com/auth/signout",
    callbackUrl: "/goodbye",
    theme: {},
  })

  it("asks for confirmation and posts to actionUrl with CSRF and callback", () => {
    expect(page.status).toBe(200)
    expect(page.html).toContain("<title>Sign Out</title>")
    expect(textOf(page.html)).toContain("Are you sure you want to sign out?")
    const [form] = forms(page.html)
    expect(form).toMatchObject({ action: "https://app.example.com/auth/signout", method: "post" })
    expect(hidden(form!, "csrfToken")).toBe("tok")
    expect(hidden(form!, "callbackUrl")).toBe("/goodbye")
    expect(form!.buttons).toEqual(["Sign out"])
    assertInert(page.html)
  })

  it("renders no CSRF input when the token is empty", () => {
    const html = renderSignOutPage({
      csrfToken: "",
      actionUrl: "/x",
      callbackUrl: "/",
      theme: {},
    }).html
    expect(hidden(forms(html)[0]!, "csrfToken")).toBeUndefined()
  })
})

describe("error page", () => {
  const render = (error?: string) => renderErrorPage({ error, signInUrl, homeUrl, theme: {} })

  it.each([
    ["Configuration", 500],
    ["AccessDenied", 403],
    ["Verification", 403],
    ["MissingCSRF", 403],
    ["RateLimited", 429],
    ["UnknownAction", 400],
    ["InvalidRequest", 400],
    ["WebAuthnVerificationError", 400],
    ["Nonsense", 400],
    ["constructor", 400],
    ["__proto__", 400],
    [undefined, 400],
  ])("%s → %i", (error, status) => {
    const page = render(error)
    expect(page.status).toBe(status)
    expect(page.html).toContain("<title>Error</title>")
    assertInert(page.html)
  })

  it("explains a configuration error without a sign-in link", () => {
    const html = render("Configuration").html
    expect(textOf(html)).toContain(
      "There is a problem with the server configuration. Check the server logs for more information.",
    )
    expect(links(html)).toEqual([homeUrl])
  })

  it.each([
    ["AccessDenied", "You do not have permission to sign in."],
    [
      "Verification",
      "The sign in link is no longer valid. It may have been used already or it may have expired.",
    ],
    [
      "MissingCSRF",
      "The sign-in form's security cookie was missing, so nothing was done. This usually means the site was opened at a different address than its usual one (for example 127.0.0.1 instead of localhost), or the form was old. Open the site at its usual address, reload the page and try again.",
    ],
  ])("links %s to exactly signInUrl", (error, message) => {
    const html = render(error).html
    expect(textOf(html)).toContain(message)
    expect(links(html)).toEqual([signInUrl])
  })

  it("says to wait when rate limited", () => {
    expect(textOf(render("RateLimited").html)).toContain(
      "Too many attempts. Wait a few minutes and try again.",
    )
  })

  it("shows generic text and a home link for anything else, never echoing the value", () => {
    const error = "Your account is locked, call +1 555 0100"
    const html = render(error).html
    expect(html).not.toContain("555 0100")
    expect(textOf(html)).toContain("Something went wrong.")
    expect(links(html)).toEqual([homeUrl])
  })

  it("shows the code of a known type for support", () => {
    expect(textOf(render("Verification").html)).toContain("Error code: Verification")
    expect(textOf(render("Nonsense").html)).not.toContain("Error code")
  })

  it("drops a link whose URL is unsafe", () => {
    const html = renderErrorPage({
      error: "AccessDenied",
      signInUrl: "javascript:alert(1)",
      homeUrl,
      theme: {},
    }).html
    expect(links(html)).toEqual([])
  })
})

describe("verify-request page", () => {
  it("says to check the inbox and links home", () => {
    const page = renderVerifyRequestPage({ homeUrl, theme: {} })
    expect(page.status).toBe(200)
    expect(page.html).toContain("<title>Verify Request</title>")
    expect(textOf(page.html)).toContain("Check your email")
    expect(textOf(page.html)).toContain("A sign in link has been sent to your email address.")
    expect(links(page.html)).toEqual([homeUrl])
    expect(textOf(page.html)).toContain("Back to app.example.com")
    assertInert(page.html)
  })

  it("names the address when given, escaped", () => {
    const page = renderVerifyRequestPage({ homeUrl: "/", theme: {}, email: "a<b>@example.com" })
    expect(textOf(page.html)).toContain("A sign in link has been sent to a<b>@example.com.")
    expect(page.html).toContain("a&lt;b&gt;@example.com")
    expect(links(page.html)).toEqual(["/"])
    assertInert(page.html)
  })
})
