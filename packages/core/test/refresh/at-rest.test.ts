/** Sealing provider tokens at rest, and the session cookie budget for tokens without an adapter. */
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  openToken,
  PROVIDER_TOKEN_SALT,
  sealToken,
} from "../../src/features/oauth/refresh/at-rest.js"
import { refreshOptionsOf } from "../../src/features/oauth/refresh/options.js"
import {
  issueWithinBudget,
  SESSION_TOKEN_BUDGET_BYTES,
  withProviderTokens,
} from "../../src/features/oauth/refresh/session-cookie.js"
import { isFresh, needsSignIn } from "../../src/features/oauth/refresh/tokens.js"
import { resolveConfig } from "../../src/kernel/config/resolve.js"
import { buildCookies } from "../../src/kernel/cookies/defaults.js"
import { ProviderTokensTooLarge } from "../../src/kernel/errors/errors.js"
import { decode, encode } from "../../src/kernel/token/jwt.js"
import OAuth from "../../src/providers/oauth.js"

const SECRET = "an-at-rest-test-secret-with-at-least-32-bytes"
const OTHER = "another-secret-with-at-least-32-bytes-of-it!"

describe("provider tokens sealed at rest", () => {
  it("round-trips any token, and the sealed form never contains it", async () => {
    await fc.assert(
      fc.asyncProperty(fc.string({ minLength: 1, maxLength: 300 }), async (token) => {
        const sealed = await sealToken([SECRET], token)
        expect(sealed.startsWith("lk1.")).toBe(true)
        if (token.length >= 4) expect(sealed).not.toContain(token)
        expect(await openToken([SECRET], sealed)).toBe(token)
      }),
      { numRuns: 50 },
    )
  })

  it("opens with a rotated-in secret list, not with an unrelated secret", async () => {
    const sealed = await sealToken([SECRET], "access-123")
    expect(await openToken([OTHER, SECRET], sealed)).toBe("access-123")
    expect(await openToken([OTHER], sealed)).toBeUndefined()
  })

  it("uses a key of its own: a session token does not open as a provider token, nor the reverse", async () => {
    const session = await encode({
      token: { v: "x" },
      secret: SECRET,
      salt: "authjs.session-token",
    })
    expect(await openToken([SECRET], `lk1.${session}`)).toBeUndefined()
    const sealed = await sealToken([SECRET], "access-123")
    expect(
      await decode({ token: sealed.slice(4), secret: SECRET, salt: "authjs.session-token" }),
    ).toBeNull()
    expect(
      await decode({ token: sealed.slice(4), secret: SECRET, salt: PROVIDER_TOKEN_SALT }),
    ).toMatchObject({ v: "access-123" })
  })

  it("reads a plaintext token an Auth.js database holds as it is; tampering gives nothing", async () => {
    expect(await openToken([SECRET], "gho_plaintext")).toBe("gho_plaintext")
    expect(await openToken([SECRET], null)).toBeUndefined()
    const sealed = await sealToken([SECRET], "access-123")
    const tampered = `${sealed.slice(0, -3)}${sealed.endsWith("A") ? "B" : "A"}AA`
    expect(await openToken([SECRET], tampered)).toBeUndefined()
  })
})

describe("tokens in the session cookie", () => {
  const config = resolveConfig({ secret: SECRET, providers: [] })
  const sctx = {
    config,
    logger: config.logger,
    cookies: buildCookies(false, undefined),
    requestCookies: {},
  }

  it("fit while small", async () => {
    const token = withProviderTokens({ sub: "u1" }, "oidc", {
      access_token: "a".repeat(1000),
      refresh_token: "r".repeat(200),
      expires_at: 2_000_000_000,
    })
    const cookies = await issueWithinBudget(sctx, token, "oidc")
    expect(cookies.length).toBeGreaterThan(0)
  })

  it("refuse with ProviderTokensTooLarge over the budget, instead of growing the cookie", async () => {
    const token = withProviderTokens({ sub: "u1" }, "oidc", {
      access_token: "a".repeat(SESSION_TOKEN_BUDGET_BYTES),
    })
    const error = await issueWithinBudget(sctx, token, "oidc").catch((e: unknown) => e)
    expect(error).toBeInstanceOf(ProviderTokensTooLarge)
    expect((error as ProviderTokensTooLarge).type).toBe("ProviderTokensTooLarge")
    expect((error as ProviderTokensTooLarge).message).not.toContain("aaaa")
  })
})

describe("refresh options and token rules", () => {
  const provider = (refresh: unknown) =>
    OAuth({ type: "oidc", id: "p", issuer: "https://idp.example", clientId: "c", refresh } as never)

  it("settle to defaults, and stay off unless asked for", () => {
    expect(refreshOptionsOf(provider(undefined))).toBeUndefined()
    expect(refreshOptionsOf(provider(false))).toBeUndefined()
    expect(refreshOptionsOf(provider(true))).toEqual({
      skewSeconds: 60,
      timeoutMs: 10_000,
      graceMs: 30_000,
    })
    expect(refreshOptionsOf(provider({ skewSeconds: 5, timeoutMs: -1 }))).toEqual({
      skewSeconds: 5,
      timeoutMs: 10_000,
      graceMs: 30_000,
    })
  })

  it("a token within the skew window is not fresh; no refresh token and expired needs a sign-in", () => {
    const now = 1_000_000
    expect(isFresh({ access_token: "a", expires_at: now + 61 }, 60, now)).toBe(true)
    expect(isFresh({ access_token: "a", expires_at: now + 60 }, 60, now)).toBe(false)
    expect(isFresh({ access_token: "a" }, 60, now)).toBe(true)
    expect(needsSignIn({ access_token: "a", expires_at: now - 1 }, now)).toBe(true)
    expect(needsSignIn({ access_token: "a", expires_at: now - 1, refresh_token: "r" }, now)).toBe(
      false,
    )
    expect(needsSignIn({ error: "RefreshTokenError", refresh_token: "r" }, now)).toBe(true)
  })
})
