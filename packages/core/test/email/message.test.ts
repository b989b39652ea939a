import { describe, expect, it } from "vitest"
import { signInMessage } from "../../src/features/email/message.js"

const url = "https://app.example.com/auth/callback/email?callbackUrl=%2F&token=abc&email=a%40b.c"

describe("signInMessage", () => {
  it("has Auth.js's subject and the link in both parts", () => {
    const m = signInMessage({ url })
    expect(m.subject).toBe("Sign in to app.example.com")
    expect(m.text).toContain(url)
    expect(m.html).toContain(`href="${url.replace(/&/g, "&amp;")}"`)
  })

  it("keeps the port in the host", () => {
    expect(signInMessage({ url: "http://localhost:5173/auth/callback/email" }).subject).toBe(
      "Sign in to localhost:5173",
    )
  })

  it("breaks the host's dots with zero-width spaces in the HTML only", () => {
    const m = signInMessage({ url })
    expect(m.html).toContain("<strong>app&#8203;.example&#8203;.com</strong>")
    expect(m.text).toContain("Sign in to app.example.com")
  })

  it("escapes the URL in the href", () => {
    const m = signInMessage({ url: 'https://a.example/?x="><img src=x onerror=alert(1)>' })
    expect(m.html).not.toContain("<img")
    expect(m.html).toContain("&quot;&gt;&lt;img")
  })

  it("uses valid theme colours and drops anything else", () => {
    const ok = signInMessage({ url, theme: { brandColor: "rebeccapurple", buttonText: "#000" } })
    expect(ok.html).toContain('bgcolor="rebeccapurple"')
    expect(ok.html).toContain("color: #000")
    const bad = signInMessage({
      url,
      theme: { brandColor: '" onmouseover="alert(1)', buttonText: "red;}</style>" },
    })
    expect(bad.html).toContain('bgcolor="#346df1"')
    expect(bad.html).toContain("color: #fff")
    expect(bad.html).not.toContain("onmouseover")
  })
})
