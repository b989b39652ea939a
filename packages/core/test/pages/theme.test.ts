import { describe, expect, it } from "vitest"
import {
  type PageTheme,
  renderErrorPage,
  renderSignInPage,
  renderSignOutPage,
  renderVerifyRequestPage,
} from "../../src/kernel/pages/index.js"
import { github } from "./fixtures.js"
import { assertInert, styleOf, tokenize } from "./html.js"

const pages = (theme: PageTheme) => ({
  signIn: renderSignInPage({ providers: [github], csrfToken: "t", callbackUrl: "/", theme }).html,
  signOut: renderSignOutPage({ csrfToken: "t", actionUrl: "/", callbackUrl: "/", theme }).html,
  error: renderErrorPage({ signInUrl: "/", homeUrl: "/", theme }).html,
  verify: renderVerifyRequestPage({ homeUrl: "/", theme }).html,
})

const bodyClass = (html: string) =>
  tokenize(html)
    .tags.find((t) => t.name === "body")
    ?.attrs.get("class")

describe("theme", () => {
  it("applies brandColor and buttonText as CSS variables on every page", () => {
    for (const html of Object.values(pages({ brandColor: "#ff5500", buttonText: "black" }))) {
      expect(styleOf(html)).toContain(":root{--brand-color:#ff5500;--button-text-color:black;}")
    }
  })

  it("drops colours that are not colours", () => {
    const html = pages({ brandColor: "red;}</style><script>", buttonText: "url(x)" }).signIn
    expect(styleOf(html)).not.toMatch(/:root\{--brand-color:(?!#346df1)/)
    expect(styleOf(html)).not.toContain("url(")
    assertInert(html)
  })

  it.each([
    ["dark", "theme-dark"],
    ["light", "theme-light"],
    ["auto", "theme-auto"],
    [undefined, "theme-auto"],
    ["purple", "theme-auto"],
    ['dark" onload="alert(1)', "theme-auto"],
  ])("colorScheme %j → body class %s", (colorScheme, className) => {
    for (const html of Object.values(pages({ colorScheme } as PageTheme))) {
      expect(bodyClass(html)).toBe(className)
    }
  })

  it("follows the OS in auto mode and has both palettes", () => {
    const css = styleOf(pages({}).signIn)
    expect(css).toMatch(/@media \(prefers-color-scheme:dark\)\{body\.theme-auto\{/)
    expect(css).toContain("body.theme-dark{")
    expect(css).toContain(":focus-visible{outline:")
  })

  it("shows the theme logo only when given and safe", () => {
    const logo = (theme: PageTheme) =>
      tokenize(pages(theme).error)
        .tags.filter((t) => t.name === "img")
        .map((t) => t.attrs.get("src"))
    expect(logo({})).toEqual([])
    expect(logo({ logo: "" })).toEqual([])
    expect(logo({ logo: "https://cdn.example.com/logo.png" })).toEqual([
      "https://cdn.example.com/logo.png",
    ])
    expect(logo({ logo: "data:image/png;base64,AAAA" })).toEqual(["data:image/png;base64,AAAA"])
    expect(logo({ logo: "javascript:alert(1)" })).toEqual([])
    expect(logo({ logo: "data:text/html,hi" })).toEqual([])
  })
})
