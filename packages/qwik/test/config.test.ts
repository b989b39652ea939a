import type { QRL } from "@builder.io/qwik"
import type { RequestEventCommon } from "@builder.io/qwik-city"
import Credentials from "@latchkey/core/providers/credentials"
import GitHub from "@latchkey/core/providers/github"
import { describe, expect, it, vi } from "vitest"
import { basePathOf, type QwikAuthConfigFn, resolveConfig } from "../src/config.js"
import { envKeys } from "../src/env.js"
import { isAuthRequest } from "../src/on-request.js"
import type { QwikAuthConfig } from "../src/types.js"

function fakeEvent(env: Record<string, string> = { AUTH_SECRET: "s".repeat(32) }) {
  return {
    env: { get: (key: string) => env[key] },
    sharedMap: new Map<string, unknown>(),
  } as unknown as RequestEventCommon
}

const userConfig: QwikAuthConfig = { providers: [], basePath: "/api/auth" }

describe("resolveConfig", () => {
  it("runs the config function once per request", async () => {
    const fn = vi.fn(() => userConfig)
    const event = fakeEvent()
    const qrl = fn as unknown as QRL<QwikAuthConfigFn>
    await Promise.all([resolveConfig(event, qrl), resolveConfig(event, qrl)])
    await resolveConfig(event, qrl)
    expect(fn).toHaveBeenCalledTimes(1)
  })

  it("hands the core the same object across requests, so its resolved form stays cached", async () => {
    const qrl = (() => userConfig) as unknown as QRL<QwikAuthConfigFn>
    const a = await resolveConfig(fakeEvent(), qrl)
    const b = await resolveConfig(fakeEvent(), qrl)
    expect(a).toBe(b)
    expect(a).not.toBe(userConfig)
    expect(a.secret).toBeTruthy()
    // A different environment (another secret) gives another config.
    const c = await resolveConfig(fakeEvent({ AUTH_SECRET: "t".repeat(32) }), qrl)
    expect(c).not.toBe(a)
  })

  it("neither mutates the user's config nor turns CSRF protection off", async () => {
    const qrl = (() => userConfig) as unknown as QRL<QwikAuthConfigFn>
    const config = await resolveConfig(fakeEvent(), qrl)
    expect(userConfig).toEqual({ providers: [], basePath: "/api/auth" })
    expect(config.skipCSRFCheck).toBeUndefined()
    expect(config.basePath).toBe("/api/auth")
  })
})

describe("envKeys", () => {
  it("reads only the variables this config can still take a value from", () => {
    const credentialsOnly: QwikAuthConfig = {
      secret: "s".repeat(32),
      trustHost: true,
      providers: [Credentials({ authorize: async () => null })],
    }
    expect(envKeys(credentialsOnly)).toEqual(["AUTH_URL", "AUTH_REDIRECT_PROXY_URL"])
    const withGitHub: QwikAuthConfig = { providers: [GitHub] }
    expect(envKeys(withGitHub)).toEqual(
      expect.arrayContaining([
        "AUTH_SECRET",
        "AUTH_SECRET_3",
        "AUTH_TRUST_HOST",
        "VERCEL",
        "AUTH_GITHUB_ID",
      ]),
    )
    expect(envKeys(withGitHub)).toContain("AUTH_GITHUB_SECRET")
  })

  it("picks up a changed value of a variable it reads", async () => {
    const user: QwikAuthConfig = { providers: [GitHub] }
    const qrl = (() => user) as unknown as QRL<QwikAuthConfigFn>
    const base = { AUTH_SECRET: "s".repeat(32), AUTH_GITHUB_ID: "one" }
    const a = await resolveConfig(fakeEvent(base), qrl)
    const b = await resolveConfig(fakeEvent({ ...base }), qrl)
    const c = await resolveConfig(fakeEvent({ ...base, AUTH_GITHUB_ID: "two" }), qrl)
    expect(b).toBe(a)
    expect(c).not.toBe(a)
    expect((c.providers[0] as { clientId?: string }).clientId).toBe("two")
  })
})

const origin = "http://127.0.0.1:5173"

describe("basePath", () => {
  it("is respected, with /auth as the default", () => {
    expect(basePathOf({ providers: [] })).toBe("/auth")
    expect(basePathOf({ providers: [], basePath: "/api/auth/" })).toBe("/api/auth")
    const api = { providers: [], basePath: "/api/auth" }
    expect(isAuthRequest("/api/auth/session", api, origin)).toBe(true)
    expect(isAuthRequest("/auth/session", api, origin)).toBe(false)
    expect(isAuthRequest("/api/authsession", api, origin)).toBe(false)
  })

  it("owns every path under basePath, so an unknown action gets the core's typed 400", () => {
    expect(isAuthRequest("/auth/signin/credentials", { providers: [] }, origin)).toBe(true)
    expect(isAuthRequest("/auth/welcome", { providers: [] }, origin)).toBe(true)
  })

  it("leaves the app's own pages configured under basePath to the app", () => {
    const config = { providers: [], pages: { signIn: "/auth/login", error: "/oops" } }
    expect(isAuthRequest("/auth/login", config, origin)).toBe(false)
    expect(isAuthRequest("/auth/signin", config, origin)).toBe(true)
  })
})
