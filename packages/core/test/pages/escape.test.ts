import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  escapeHtml,
  safeCssColour,
  safeImageUrl,
  safeLinkUrl,
} from "../../src/kernel/pages/escape.js"
import { decodeEntities } from "./html.js"

// Strings dense in the characters that matter, so the property does not rely on luck.
const htmlish = fc.string({
  unit: fc.constantFrom("<", ">", "&", '"', "'", ";", "#", "x", "a", "m", "p", "l", "t", "3", "9"),
})

describe("escapeHtml", () => {
  it("escapes the five significant characters", () => {
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe(
      "&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;",
    )
  })

  it("leaves no markup character and no bare ampersand, for any string", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: "binary" }), htmlish), (s) => {
        const out = escapeHtml(s)
        expect(out).not.toMatch(/[<>"']/)
        // Every & starts one of the entities escapeHtml writes.
        expect(out.replace(/&(?:amp|lt|gt|quot|#39);/g, "")).not.toContain("&")
      }),
      { numRuns: 2000 },
    )
  })

  it("round-trips through an entity decoder", () => {
    fc.assert(
      fc.property(fc.oneof(fc.string({ unit: "binary" }), htmlish), (s) => {
        expect(decodeEntities(escapeHtml(s))).toBe(s)
      }),
      { numRuns: 2000 },
    )
  })
})

describe("safeLinkUrl", () => {
  it.each([
    "https://app.example.com/auth/signin",
    "http://localhost:5173/",
    "/auth/signin?callbackUrl=%2F",
    "?error=x",
    "relative/path",
  ])("keeps %s", (url) => {
    expect(safeLinkUrl(url)).toBe(url)
  })

  it.each([
    "javascript:alert(1)",
    " JaVaScRiPt:alert(1)",
    "java\tscript:alert(1)",
    "java\nscript:alert(1)",
    "\u0001javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "vbscript:msgbox(1)",
    "mailto:a@b.c",
    "",
    "   ",
  ])("drops %j", (url) => {
    expect(safeLinkUrl(url)).toBeUndefined()
  })

  it("drops non-strings that slip past the types", () => {
    expect(safeLinkUrl(undefined)).toBeUndefined()
    expect(safeLinkUrl(42 as unknown as string)).toBeUndefined()
  })
})

describe("safeImageUrl", () => {
  it.each([
    "https://cdn.example.com/logo.svg",
    "/logo.png",
    "data:image/png;base64,iVBORw0KGgo=",
    "DATA:image/svg+xml,%3Csvg%3E",
  ])("keeps %s", (url) => {
    expect(safeImageUrl(url)).toBe(url)
  })

  it.each([
    "javascript:alert(1)",
    "data:text/html,<script>alert(1)</script>",
    "data:,image/",
    "blob:https://x/y",
    "file:///etc/passwd",
  ])("drops %j", (url) => {
    expect(safeImageUrl(url)).toBeUndefined()
  })
})

describe("safeCssColour", () => {
  it.each([
    ["#fff", "#fff"],
    ["#FFFA", "#FFFA"],
    ["#346df1", "#346df1"],
    ["#346df180", "#346df180"],
    [" rgb(52, 109, 241) ", "rgb(52, 109, 241)"],
    ["rgba(0,0,0,.5)", "rgba(0,0,0,.5)"],
    ["rgb(0 0 0 / 50%)", "rgb(0 0 0 / 50%)"],
    ["hsl(220deg 87% 57%)", "hsl(220deg 87% 57%)"],
    ["RebeccaPurple", "rebeccapurple"],
    ["transparent", "transparent"],
  ])("keeps %j", (input, output) => {
    expect(safeCssColour(input)).toBe(output)
  })

  it.each([
    "red;}</style><script>alert(1)</script>",
    "#fff;background:url(https://evil.example/x)",
    "url(javascript:alert(1))",
    "expression(alert(1))",
    "var(--x)",
    "rgb(0,0,0);}body{display:none",
    "rgb(calc(1),0,0)",
    "#ggg",
    "#12345",
    "notacolour",
    "",
    "red blue",
  ])("drops %j", (input) => {
    expect(safeCssColour(input)).toBeUndefined()
  })

  it("never lets a character through that could leave a declaration", () => {
    fc.assert(
      fc.property(fc.string({ unit: "binary" }), (s) => {
        expect(safeCssColour(s) ?? "").not.toMatch(/[;{}<>"'\\:]/)
      }),
      { numRuns: 2000 },
    )
  })
})
