import { describe, expect, it } from "vitest"
import { PASSKEY_SCRIPT } from "../../src/features/passkey/script.js"
import { renderSignInPage, type SignInPageProps } from "../../src/kernel/pages/index.js"
import { callbackUrl, credentials, csrfToken, email, github, google, webauthn } from "./fixtures.js"
import { assertInert, forms, hidden, textOf, tokenize } from "./html.js"

function render(props: Partial<SignInPageProps> = {}) {
  return renderSignInPage({
    providers: [github, google, email, credentials],
    csrfToken,
    callbackUrl,
    theme: {},
    ...props,
  })
}

describe("sign-in page", () => {
  it("is a complete, script-free HTML5 document", () => {
    const { status, html } = render()
    expect(status).toBe(200)
    expect(html).toMatch(/^<!DOCTYPE html>\s*<html lang="en">/)
    expect(html).toContain('<meta name="viewport" content="width=device-width, initial-scale=1">')
    expect(html).toContain("<title>Sign In</title>")
    expect(html).not.toMatch(/<script|<link|<iframe/i)
    assertInert(html)
  })

  it("loads nothing from another origin when no logos are configured", () => {
    const { tags } = tokenize(render().html)
    expect(tags.filter((t) => t.name === "img")).toEqual([])
  })

  it("posts OAuth and OIDC forms to the provider's sign-in URL with CSRF and callback", () => {
    const [gh, gg] = forms(render().html)
    expect(gh).toMatchObject({ action: github.signinUrl, method: "post" })
    expect(gg).toMatchObject({ action: google.signinUrl, method: "post" })
    for (const form of [gh!, gg!]) {
      expect(hidden(form, "csrfToken")).toBe(csrfToken)
      expect(hidden(form, "callbackUrl")).toBe(callbackUrl)
    }
    expect(gh!.buttons).toEqual(["Sign in with GitHub"])
    expect(gg!.buttons).toEqual(["Sign in with Google"])
  })

  it("posts the email form to signinUrl with a required, prefilled email input", () => {
    const form = forms(render({ email: "ada@example.com" }).html)[2]!
    expect(form).toMatchObject({ action: email.signinUrl, method: "post" })
    expect(hidden(form, "csrfToken")).toBe(csrfToken)
    expect(hidden(form, "callbackUrl")).toBe(callbackUrl)
    const input = form.inputs.find((i) => i.attrs.get("name") === "email")!
    expect(input.attrs.get("type")).toBe("email")
    expect(input.attrs.has("required")).toBe(true)
    expect(input.attrs.get("value")).toBe("ada@example.com")
    expect(form.labels).toEqual([{ for: input.attrs.get("id"), text: "Email" }])
    expect(form.buttons).toEqual(["Sign in with Email"])
  })

  it("posts credentials to the provider's callbackUrl with one labelled input per field", () => {
    const form = forms(render().html)[3]!
    expect(form).toMatchObject({ action: credentials.callbackUrl, method: "post" })
    expect(hidden(form, "csrfToken")).toBe(csrfToken)
    expect(hidden(form, "callbackUrl")).toBe(callbackUrl)
    const visible = form.inputs.filter((i) => i.attrs.get("type") !== "hidden")
    expect(visible.map((i) => [i.attrs.get("name"), i.attrs.get("type")])).toEqual([
      ["username", "text"],
      ["password", "password"],
    ])
    // Every input has a label bound to it by id.
    expect(form.labels.map((l) => l.for)).toEqual(visible.map((i) => i.attrs.get("id")))
    expect(form.labels.map((l) => l.text)).toEqual(["Username", "Password"])
    expect(visible[0]!.attrs.get("placeholder")).toBe("jsmith")
    expect(visible[0]!.attrs.get("autocomplete")).toBe("username")
    expect(visible[1]!.attrs.has("required")).toBe(true)
    expect(visible[1]!.attrs.get("minlength")).toBe("8")
    expect(form.buttons).toEqual(["Sign in with Password"])
  })

  it("passes safe input attributes through and drops the rest", () => {
    const provider = {
      ...credentials,
      credentials: {
        otp: {
          type: "tel",
          inputMode: "numeric",
          pattern: "[0-9]{6}",
          maxlength: "6",
          onfocus: "alert(1)",
          onFocus: "alert(1)",
          style: "display:none",
          form: "other",
          formaction: "https://evil.example",
          autofocus: true,
          value: "prefilled",
          minlength: "8 onfocus=alert(1)",
          inputmode: "javascript",
          required: "yes",
        },
        plain: {},
        weird: { type: "file", label: "" },
      },
    }
    const form = forms(render({ providers: [provider] }).html)[0]!
    const [otp, plain, weird] = form.inputs.filter((i) => i.attrs.get("type") !== "hidden")
    expect(Object.fromEntries(otp!.attrs)).toEqual({
      id: otp!.attrs.get("id"),
      type: "tel",
      name: "otp",
      inputmode: "numeric",
      pattern: "[0-9]{6}",
      maxlength: "6",
    })
    expect(plain!.attrs.get("type")).toBe("text")
    expect(weird!.attrs.get("type")).toBe("text")
    // A field without a label is labelled by its key.
    expect(form.labels.map((l) => l.text)).toEqual(["otp", "plain", "weird"])
  })

  it("renders a passkey form run by our one inline script, and says passkeys need JavaScript", () => {
    // The passkey feature hands its script to the page with its entry (`signInPage` in kernel/feature/feature.ts).
    const { html, scripts } = render({ providers: [webauthn], scripts: [PASSKEY_SCRIPT] })
    const [form] = forms(html)
    const tag = tokenize(html).tags.find((t) => t.name === "form")!
    expect(tag.attrs.get("data-options")).toBe(webauthn.optionsUrl)
    expect(tag.attrs.get("data-callback")).toBe(webauthn.callbackUrl)
    expect(tag.attrs.has("data-conditional")).toBe(true)
    expect(hidden(form!, "csrfToken")).toBe(csrfToken)
    expect(hidden(form!, "callbackUrl")).toBe(callbackUrl)
    const field = form!.inputs.find((i) => i.attrs.get("name") === "email")!
    expect(field.attrs.get("autocomplete")).toBe("username webauthn")
    expect(form!.buttons).toEqual(["Sign in with Passkey"])
    expect(scripts).toEqual([PASSKEY_SCRIPT])
    expect(html.match(/<script/g)).toHaveLength(1)
    expect(html).toContain(`<script>${PASSKEY_SCRIPT}</script>`)
    expect(html).toContain("Passkeys need JavaScript")
    expect(html).not.toMatch(/<script[^>]+src=/)
    assertInert(html)
  })

  it("has no script without a passkey provider", () => {
    const page = render({ providers: [github, email, credentials] })
    expect(page.scripts).toBeUndefined()
    expect(page.html).not.toMatch(/<script/i)
  })

  it("skips a credentials provider that declares no fields, as Auth.js does", () => {
    const { credentials: _none, ...bare } = credentials
    const html = render({ providers: [github, bare] }).html
    expect(forms(html)).toHaveLength(1)
    expect(html).not.toContain('class="divider"')
  })

  it("renders no hidden CSRF input when the token is empty", () => {
    for (const form of forms(render({ csrfToken: "" }).html)) {
      expect(hidden(form, "csrfToken")).toBeUndefined()
      expect(hidden(form, "callbackUrl")).toBe(callbackUrl)
    }
  })

  it("separates groups with 'or' but stacks OAuth buttons together", () => {
    const html = render({ providers: [github, google, email, credentials, webauthn] }).html
    expect(html.match(/class="divider">or</g)).toHaveLength(3)
    expect(html).not.toMatch(/Sign in with GitHub[\s\S]*divider[\s\S]*Sign in with Google/)
    expect(
      render({ providers: [email, github, google] }).html.match(/class="divider"/g),
    ).toHaveLength(1)
  })

  it("applies provider colours through one class per provider", () => {
    const html = render().html
    expect(html).toContain(".provider-0{--provider-bg:#24292f;--provider-text:#fff;}")
    expect(html).toContain(
      ".provider-1{--provider-bg:#fff;--provider-text:#1f1f1f;--provider-brand:#1a73e8;}",
    )
    expect(html).toContain('class="button provider provider-0"')
  })

  it("shows a provider logo only when the provider sets a safe one", () => {
    const withLogo = { ...github, style: { logo: "https://cdn.example.com/gh.svg" } }
    const bad = { ...google, style: { logo: "javascript:alert(1)" } }
    const imgs = tokenize(render({ providers: [withLogo, bad] }).html).tags.filter(
      (t) => t.name === "img",
    )
    expect(imgs.map((i) => [i.attrs.get("src"), i.attrs.get("alt")])).toEqual([
      ["https://cdn.example.com/gh.svg", ""],
    ])
  })

  it("says so when no provider can be shown", () => {
    expect(textOf(render({ providers: [] }).html)).toContain("No sign-in methods are configured.")
  })
})

/** What happened (the security cookie was missing), the usual cause and what to do. */
const CSRF_MISSING =
  "The sign-in form's security cookie was missing, so nothing was done. This usually means the site was opened at a different address than its usual one (for example 127.0.0.1 instead of localhost), or the form was old. Open the site at its usual address, reload the page and try again."

describe("sign-in error banner", () => {
  const banner = (error?: string) => {
    const match = /<div class="alert" role="alert">([\s\S]*?)<\/div>/.exec(render({ error }).html)
    return match === null ? undefined : textOf(match[1]!)
  }

  it.each([
    ["CredentialsSignin", "Sign in failed. Check the details you provided are correct."],
    [
      "OAuthAccountNotLinked",
      "To confirm your identity, sign in with the same account you used originally.",
    ],
    ["OAuthCallbackError", "Try signing in with a different account."],
    ["OAuthSignInError", "Try signing in with a different account."],
    ["EmailSignInError", "The e-mail could not be sent."],
    ["MissingCSRF", CSRF_MISSING],
    ["TwoFactorSignInExpired", "Your sign-in expired. Sign in again."],
    ["SessionRequired", "Please sign in to access this page."],
    ["AccessDenied", "You do not have permission to sign in."],
    [
      "Verification",
      "The sign in link is no longer valid. It may have been used already or it may have expired.",
    ],
    ["RateLimited", "Too many attempts. Wait a few minutes and try again."],
    ["OAuthSignin", "Try signing in with a different account."],
    ["EmailSignin", "The e-mail could not be sent."],
  ])("%s → %s", (error, message) => {
    expect(banner(error)).toBe(message)
  })

  it.each([
    "Something",
    "Call +1 555 0100 to unlock your account",
    "constructor",
    "__proto__",
    "toString",
    "hasOwnProperty",
    "credentialssignin",
  ])("shows the generic text for %j and never echoes it", (error) => {
    const html = render({ error }).html
    expect(banner(error)).toBe("Unable to sign in.")
    expect(html).not.toContain(error === "credentialssignin" ? "\u0000" : error)
  })

  it("shows no banner without an error", () => {
    expect(banner(undefined)).toBeUndefined()
    expect(banner("")).toBeUndefined()
  })

  it("never shows the credentials code, which could name the wrong field", () => {
    const html = render({ error: "CredentialsSignin", code: "wrong_password" }).html
    expect(html).not.toContain("wrong_password")
  })
})
