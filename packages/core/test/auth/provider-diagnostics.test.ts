/**
 * A provider that cannot work (an OAuth button with no client id or secret) is reported at the
 * first request, naming what to set, and only its own sign-in fails: on the error page.
 */
import { describe, expect, it } from "vitest"
import { Auth } from "../../src/index.js"
import GitHub from "../../src/providers/github.js"
import {
  credentialsProvider,
  makeConfig,
  recordingLogger,
  req,
  signInWithCredentials,
} from "./helpers.js"

function setup() {
  const rec = recordingLogger()
  const config = makeConfig({ providers: [credentialsProvider(), GitHub], logger: rec.logger })
  return { rec, config }
}

describe("a provider without its client credentials", () => {
  it("is reported once, at the first request, naming the variables to set", async () => {
    const { rec, config } = setup()
    await Auth(req("/auth/session"), config)
    await Auth(req("/auth/providers"), config)
    const warnings = rec.calls.filter(
      (c) => c.level === "warn" && c.args[0] === "provider-unusable",
    )
    expect(warnings).toHaveLength(1)
    expect(warnings[0]!.args[1]).toMatch(/"github".*AUTH_GITHUB_ID and AUTH_GITHUB_SECRET/)
  })

  it("sends whoever clicks its button to the error page, with a code", async () => {
    const { config } = setup()
    const res = await Auth(req("/auth/signin/github", { form: { callbackUrl: "/" } }), config)
    expect(res.status).toBe(303)
    const location = new URL(res.headers.get("location")!)
    expect(location.pathname).toBe("/auth/error")
    expect(location.searchParams.get("error")).toBe("InvalidProvider")

    const page = await Auth(req(`${location.pathname}${location.search}`), config)
    expect(page.status).toBe(500)
    const html = await page.text()
    expect(html).toContain("Sign-in method unavailable")
    // The page says nothing about the configuration itself; the log does.
    expect(html).not.toContain("AUTH_GITHUB")
  })

  it("leaves the other providers working", async () => {
    const { config } = setup()
    const { res } = await signInWithCredentials(Auth, config)
    expect(res.status).toBe(303)
    expect(res.headers.get("location")).not.toContain("error")
  })

  it("says nothing when the variables are set", async () => {
    const rec = recordingLogger()
    const github = GitHub({ clientId: "id", clientSecret: "secret" })
    await Auth(req("/auth/session"), makeConfig({ providers: [github], logger: rec.logger }))
    expect(rec.warnings()).not.toContain("provider-unusable")
  })

  it("still answers an unknown provider id with the typed 400", async () => {
    const { config } = setup()
    const res = await Auth(req("/auth/signin/nope", { form: {} }), config)
    expect(res.status).toBe(400)
  })
})
