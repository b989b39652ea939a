/**
 * The browser helper `registerPasskey` when the server refuses the options: the typed error,
 * and for `ReauthenticationRequired` the sign-in URL the server named (same origin only), so
 * the app can send the user to sign in again. The ceremony itself is the e2e tests' (Chromium).
 */
import { afterEach, describe, expect, it, vi } from "vitest"

vi.mock("@simplewebauthn/browser", () => ({
  browserSupportsWebAuthn: () => true,
  startRegistration: () => {
    throw new Error("the ceremony must not start after a refusal")
  },
  startAuthentication: () => {
    throw new Error("the ceremony must not start after a refusal")
  },
}))

const { registerPasskey } = await import("../src/passkey/client.js")

const ORIGIN = "http://app.example.com"

function serve(status: number, body: unknown) {
  vi.stubGlobal("location", new URL(`${ORIGIN}/account/`))
  const fetch = vi.fn(async () => Response.json(body, { status }))
  vi.stubGlobal("fetch", fetch)
  return fetch
}

afterEach(() => vi.unstubAllGlobals())

describe("registerPasskey refused by the server", () => {
  it("ReauthenticationRequired: the typed error and the sign-in URL to confirm with", async () => {
    const url = `${ORIGIN}/auth/signin?error=ReauthenticationRequired&reauth=1`
    const fetch = serve(403, {
      error: { type: "ReauthenticationRequired", message: "Sign in again." },
      url,
    })
    const failed = await registerPasskey({ basePath: "/auth" })
    expect(fetch).toHaveBeenCalledTimes(1)
    expect(failed).toEqual({
      ok: false,
      error: { type: "ReauthenticationRequired", message: "Sign in again." },
      signInUrl: url,
    })
  })

  it("a URL of another origin is not passed on; other refusals carry none", async () => {
    serve(403, {
      error: { type: "ReauthenticationRequired", message: "Sign in again." },
      url: "https://evil.example/signin",
    })
    expect((await registerPasskey())?.signInUrl).toBeUndefined()
    serve(429, { error: { type: "RateLimited", message: "Too many." } })
    expect(await registerPasskey()).toEqual({
      ok: false,
      error: { type: "RateLimited", message: "Too many." },
    })
  })
})
