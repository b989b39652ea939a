import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  type PageProvider,
  renderErrorPage,
  renderSignInPage,
  renderSignOutPage,
  renderVerifyRequestPage,
  type SignInPageProps,
} from "../../src/kernel/pages/index.js"
import { credentials, email, github, webauthn } from "./fixtures.js"
import { assertInert, shape, textOf } from "./html.js"

/** Payloads for HTML text, attributes (both quote styles), URLs, CSS and raw-text elements. */
const corpus = [
  "<script>alert(1)</script>",
  '"><img src=x onerror=alert(1)>',
  "'><svg onload=alert(1)>",
  '" autofocus onfocus="alert(1)',
  "' onmouseover='alert(1)",
  "javascript:alert(1)",
  " JaVaScRiPt:alert(1)",
  "java\tscript:alert(1)",
  "\u0000javascript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "</style><script>alert(1)</script>",
  "red;}</style><script>alert(1)</script><style>",
  "#fff;background:url(https://evil.example/x)",
  "rgb(0,0,0);}body{display:none",
  "expression(alert(1))",
  "</title><script>alert(1)</script>",
  "<!--",
  "&lt;script&gt;alert(1)&lt;/script&gt;",
  "&#x3C;script&#x3E;",
  "<a href=//evil.example>x</a>",
  "{{constructor.constructor('alert(1)')()}}",
]

const benign = "plain"

type Render = (value: string) => string

// Each field that reaches the HTML, with a renderer that puts a value into just that field.
const signIn = (over: (v: string) => Partial<SignInPageProps>): Render => {
  return (v) =>
    renderSignInPage({
      providers: [github, email, credentials, webauthn],
      csrfToken: "tok",
      callbackUrl: "/",
      theme: {},
      ...over(v),
    }).html
}
const withProvider = (patch: (v: string) => Partial<PageProvider>, base = github): Render =>
  signIn((v) => ({ providers: [{ ...base, ...patch(v) }, email] }))

/** Fields shown as text: the page must show the payload literally and keep its structure. */
const textFields: Record<string, Render> = {
  "provider name (oauth)": withProvider((v) => ({ name: v })),
  "provider name (email)": withProvider((v) => ({ name: v }), email),
  "provider name (credentials)": withProvider((v) => ({ name: v }), credentials),
  "credential label": withProvider(
    (v) => ({ credentials: { username: { label: v } } }),
    credentials,
  ),
  "verify-request email": (v) =>
    renderVerifyRequestPage({ homeUrl: "/", theme: {}, email: v }).html,
}

/** Fields only ever in attribute values, allow-listed or dropped: structure may lose a node. */
const otherFields: Record<string, Render> = {
  "provider id": withProvider((v) => ({ id: v })),
  "provider signinUrl": withProvider((v) => ({ signinUrl: v })),
  "credentials callbackUrl": withProvider((v) => ({ callbackUrl: v }), credentials),
  "provider logo": withProvider((v) => ({ style: { logo: v } })),
  "provider colours": withProvider((v) => ({ style: { bg: v, text: v, brandColor: v } })),
  "credential key": withProvider((v) => ({ credentials: { [v]: { label: "x" } } }), credentials),
  "credential placeholder": withProvider(
    (v) => ({ credentials: { u: { placeholder: v, pattern: v, autocomplete: v } } }),
    credentials,
  ),
  "credential type": withProvider((v) => ({ credentials: { u: { type: v } } }), credentials),
  "credential extra attribute": withProvider(
    (v) => ({ credentials: { u: { [v]: v, onclick: v, style: v } } }),
    credentials,
  ),
  "sign-in csrfToken": signIn((v) => ({ csrfToken: v })),
  "sign-in callbackUrl": signIn((v) => ({ callbackUrl: v })),
  "sign-in error": signIn((v) => ({ error: v })),
  "sign-in code": signIn((v) => ({ error: "CredentialsSignin", code: v })),
  "sign-in email prefill": signIn((v) => ({ email: v })),
  "theme colours": signIn((v) => ({ theme: { brandColor: v, buttonText: v } })),
  "theme logo": signIn((v) => ({ theme: { logo: v } })),
  "theme colorScheme": signIn((v) => ({ theme: { colorScheme: v as "auto" } })),
  "sign-out csrfToken": (v) =>
    renderSignOutPage({ csrfToken: v, actionUrl: "/", callbackUrl: "/", theme: {} }).html,
  "sign-out actionUrl": (v) =>
    renderSignOutPage({ csrfToken: "t", actionUrl: v, callbackUrl: "/", theme: {} }).html,
  "sign-out callbackUrl": (v) =>
    renderSignOutPage({ csrfToken: "t", actionUrl: "/", callbackUrl: v, theme: {} }).html,
  "error type": (v) => renderErrorPage({ error: v, signInUrl: "/", homeUrl: "/", theme: {} }).html,
  "error signInUrl": (v) =>
    renderErrorPage({ error: "AccessDenied", signInUrl: v, homeUrl: "/", theme: {} }).html,
  "error homeUrl": (v) => renderErrorPage({ signInUrl: "/", homeUrl: v, theme: {} }).html,
  "verify homeUrl": (v) => renderVerifyRequestPage({ homeUrl: v, theme: {} }).html,
}

describe("XSS corpus", () => {
  describe.each(Object.entries(textFields))("%s", (_field, render) => {
    it.each(corpus)("shows %j as text without changing the page's structure", (payload) => {
      const html = render(payload)
      assertInert(html)
      expect(shape(html)).toEqual(shape(render(benign)))
      // The payload is on the page verbatim as text (control characters aside).
      expect(textOf(html)).toContain(payload.replace(/\s+/g, " ").trim())
    })
  })

  describe.each(Object.entries(otherFields))("%s", (_field, render) => {
    it.each(corpus)("keeps %j inert", (payload) => {
      assertInert(render(payload))
    })
  })

  it("keeps every field inert for arbitrary strings", () => {
    const all = [...Object.values(textFields), ...Object.values(otherFields)]
    const fragments = fc.constantFrom(...corpus, "<", ">", '"', "'", "&", ";", "}", "\t", ":", " ")
    const value = fc.oneof(
      fc.string({ unit: "binary" }),
      fc.array(fragments, { maxLength: 6 }).map((parts) => parts.join("")),
    )
    fc.assert(
      fc.property(fc.constantFrom(...all), value, (render, v) => {
        assertInert(render(v))
      }),
      { numRuns: 1500 },
    )
  })
})
