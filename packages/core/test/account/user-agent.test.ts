import { describe, expect, it } from "vitest"
import { coarseUserAgent } from "../../src/kernel/account/user-agent.js"

describe("coarseUserAgent", () => {
  it.each([
    ["Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0", "Firefox on Linux"],
    [
      "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
      "Edge on Windows",
    ],
    [
      "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15",
      "Safari on macOS",
    ],
    [
      "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/120.0 Mobile/15E148 Safari/604.1",
      "Chrome on iOS",
    ],
    [
      "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Mobile Safari/537.36",
      "Chrome on Android",
    ],
    [
      "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36",
      "Chrome on Linux",
    ],
    ["curl/8.5.0", undefined],
    ["", undefined],
    [null, undefined],
  ])("%s → %s", (header, expected) => {
    expect(coarseUserAgent(header)).toBe(expected)
  })

  it("never carries versions or the header's own text", () => {
    const out = coarseUserAgent("<script>Firefox/1.2.3 (Windows; evil)</script>")
    expect(out).toBe("Firefox on Windows")
  })
})
