import { afterEach, describe, expect, it, vi } from "vitest"
import { requestEmailSignIn } from "../../src/features/email/request.js"
import { verifyEmailSignIn } from "../../src/features/email/verify.js"
import {
  AccessDenied,
  EmailSignInError,
  MissingAdapterMethods,
  MissingSecret,
  RateLimited,
  Verification,
} from "../../src/kernel/errors/errors.js"
import { storedLinkValue } from "../../src/kernel/grants/link.js"
import { hashVerificationToken } from "../../src/kernel/grants/link-token.js"
import { MemoryRateLimitStore } from "../../src/kernel/rate-limit/memory-store.js"
import type { Adapter } from "../../src/kernel/types/adapters.js"
import {
  capturingProvider,
  linkParams,
  MemoryAdapter,
  ORIGIN,
  requestParams,
  SECRET,
  stampOf,
} from "./helpers.js"

afterEach(() => {
  vi.useRealTimers()
})

/** The grant an email sign-in link for a new address is minted as. */
function grantOf(mail: { identifier: string }) {
  return { purpose: "email-sign-in", identifier: mail.identifier, userId: null } as const
}

/** An adapter recording the verification tokens it stores. */
function recordingAdapter() {
  const adapter = MemoryAdapter()
  const stored: { identifier: string; token: string; expires: Date }[] = []
  const create = adapter.createVerificationToken!.bind(adapter)
  adapter.createVerificationToken = (vt) => {
    stored.push(vt)
    return create(vt)
  }
  return { adapter, stored }
}

async function sendLink(adapter: Adapter, overrides = {}) {
  const { provider, sent } = capturingProvider()
  const result = await requestEmailSignIn(requestParams(provider, adapter, overrides))
  expect(result).toMatchObject({ kind: "verify-request", status: "sent" })
  expect(sent).toHaveLength(1)
  return { provider, mail: sent[0]!, link: linkParams(sent[0]!.url) }
}

describe("requestEmailSignIn", () => {
  it("normalizes the address, stores an HMAC of the token and mails the link", async () => {
    const { adapter, stored } = recordingAdapter()
    const before = Date.now()
    const { mail, link } = await sendLink(adapter)
    expect(mail.identifier).toBe("ann@example.com")
    expect(new URL(mail.url).origin + new URL(mail.url).pathname).toBe(
      `${ORIGIN}/auth/callback/nodemailer`,
    )
    expect([...new URL(mail.url).searchParams.keys()]).toEqual(["callbackUrl", "token", "email"])
    expect(link).toEqual({
      token: mail.token,
      email: "ann@example.com",
      callbackUrl: `${ORIGIN}/dashboard`,
    })
    // 32 random bytes, base64url.
    expect(mail.token).toMatch(/^[A-Za-z0-9_-]{43}$/)
    expect(stored).toHaveLength(1)
    expect(stored[0]!.identifier).toBe("ann@example.com")
    expect(stored[0]!.token).not.toContain(mail.token)
    // The MAC of the token and what the link is bound to (no account holds the address yet).
    expect(stored[0]!.token).toBe(await storedLinkValue(mail.token, grantOf(mail), "none", SECRET))
    // Default lifetime: 10 minutes.
    const lifetime = stored[0]!.expires.getTime() - before
    expect(lifetime).toBeGreaterThan(599_000)
    expect(lifetime).toBeLessThanOrEqual(601_000)
    expect(mail.expires).toEqual(stored[0]!.expires)
  })

  it("builds the link for basePath '/' and honours maxAge", async () => {
    const { adapter, stored } = recordingAdapter()
    const { provider, sent } = capturingProvider({ id: "magic", maxAge: 60 })
    await requestEmailSignIn(requestParams(provider, adapter, { basePath: "/" }))
    expect(sent[0]!.url.startsWith(`${ORIGIN}/callback/magic?`)).toBe(true)
    expect(stored[0]!.expires.getTime() - Date.now()).toBeLessThanOrEqual(60_000)
  })

  it("answers the same for an existing and an unknown address", async () => {
    const adapter = MemoryAdapter()
    await adapter.createUser!({ id: "u1", email: "known@example.com", emailVerified: null })
    const { provider } = capturingProvider()
    const known = await requestEmailSignIn(
      requestParams(provider, adapter, { email: "known@example.com" }),
    )
    const unknown = await requestEmailSignIn(
      requestParams(provider, adapter, { email: "unknown@example.com" }),
    )
    expect(known).toMatchObject({ kind: "verify-request", status: "sent" })
    expect(unknown).toMatchObject({ kind: "verify-request", status: "sent" })
  })

  it("passes the signIn callback the user, an email account and verificationRequest", async () => {
    const adapter = MemoryAdapter()
    await adapter.createUser!({ id: "u1", email: "ann@example.com", emailVerified: null })
    const signInCallback = vi.fn(() => true)
    const { provider } = capturingProvider()
    await requestEmailSignIn(requestParams(provider, adapter, { signInCallback }))
    expect(signInCallback).toHaveBeenCalledWith({
      user: expect.objectContaining({ id: "u1", email: "ann@example.com" }),
      account: {
        provider: "nodemailer",
        providerAccountId: "ann@example.com",
        type: "email",
        userId: "u1",
      },
      email: { verificationRequest: true },
    })
  })

  it.each([
    ["false", () => false],
    [
      "a throw",
      () => {
        throw new Error("nope")
      },
    ],
    [
      "an AuthError throw",
      () => {
        throw new Verification("odd")
      },
    ],
  ])("turns %s from the signIn callback into AccessDenied and sends nothing", async (_, cb) => {
    const { adapter, stored } = recordingAdapter()
    const { provider, sent } = capturingProvider()
    await expect(
      requestEmailSignIn(requestParams(provider, adapter, { signInCallback: cb })),
    ).rejects.toBeInstanceOf(AccessDenied)
    expect(sent).toHaveLength(0)
    expect(stored).toHaveLength(0)
  })

  it("returns a redirect when the signIn callback returns a URL, and sends nothing", async () => {
    const { adapter, stored } = recordingAdapter()
    const { provider, sent } = capturingProvider()
    const result = await requestEmailSignIn(
      requestParams(provider, adapter, { signInCallback: () => "/not-allowed" }),
    )
    expect(result).toEqual({ kind: "redirect", url: "/not-allowed" })
    expect(sent).toHaveLength(0)
    expect(stored).toHaveLength(0)
  })

  it("refuses a malformed address with EmailSignInError before any other work", async () => {
    const { adapter, stored } = recordingAdapter()
    const signInCallback = vi.fn(() => true)
    const { provider, sent } = capturingProvider()
    for (const email of [undefined, "", "a@b@c.com", "ann@example.com,eve@evil.com"]) {
      await expect(
        requestEmailSignIn(requestParams(provider, adapter, { email, signInCallback })),
      ).rejects.toBeInstanceOf(EmailSignInError)
    }
    expect(signInCallback).not.toHaveBeenCalled()
    expect(sent).toHaveLength(0)
    expect(stored).toHaveLength(0)
  })

  it("uses the provider's normalizeIdentifier and generateVerificationToken", async () => {
    const { adapter, stored } = recordingAdapter()
    const { provider, sent } = capturingProvider({
      normalizeIdentifier: (raw) => {
        const [local = "", domain = ""] = raw.trim().toLowerCase().split("@")
        if (domain !== "example.com") throw new Error("only example.com")
        return `${local.split("+")[0]}@${domain}`
      },
      generateVerificationToken: () => "custom-token-value-0123456789abcdef",
    })
    await requestEmailSignIn(requestParams(provider, adapter, { email: "Ann+news@Example.com" }))
    expect(sent[0]!.identifier).toBe("ann@example.com")
    expect(sent[0]!.token).toBe("custom-token-value-0123456789abcdef")
    expect(stored[0]!.token).toBe(
      await storedLinkValue(
        "custom-token-value-0123456789abcdef",
        grantOf({ identifier: "ann@example.com" }),
        "none",
        SECRET,
      ),
    )
    // A custom normalizer's plain Error is a refusal of the address, typed.
    await expect(
      requestEmailSignIn(requestParams(provider, adapter, { email: "ann@evil.com" })),
    ).rejects.toBeInstanceOf(EmailSignInError)
  })

  it("names missing configuration with typed errors", async () => {
    const { provider } = capturingProvider()
    await expect(
      requestEmailSignIn(requestParams(provider, MemoryAdapter(), { secret: undefined })),
    ).rejects.toBeInstanceOf(MissingSecret)
    await expect(
      requestEmailSignIn(requestParams(provider, MemoryAdapter(), { secret: [] })),
    ).rejects.toBeInstanceOf(MissingSecret)
    await expect(
      requestEmailSignIn({ ...requestParams(provider, MemoryAdapter()), adapter: undefined }),
    ).rejects.toBeInstanceOf(MissingAdapterMethods)
  })

  describe("mail failures", () => {
    it("shows verify-request when the server refuses the recipient, and logs it", async () => {
      const error = vi.fn()
      const { provider } = capturingProvider({
        sendVerificationRequest: () => {
          throw new EmailSignInError("refused", { details: { reason: "recipient-rejected" } })
        },
      })
      const result = await requestEmailSignIn(
        requestParams(provider, MemoryAdapter(), { logger: { error, debug: vi.fn() } }),
      )
      expect(result).toMatchObject({ kind: "verify-request", status: "recipient-rejected" })
      expect(error).toHaveBeenCalledWith(expect.any(EmailSignInError))
    })

    it("throws EmailSignInError when the transport fails (same for every address)", async () => {
      const { provider } = capturingProvider({
        sendVerificationRequest: () => {
          throw new Error("ECONNREFUSED")
        },
      })
      const failure = requestEmailSignIn(requestParams(provider, MemoryAdapter()))
      await expect(failure).rejects.toBeInstanceOf(EmailSignInError)
      await expect(failure).rejects.toMatchObject({ details: { reason: "transport" } })
    })
  })

  describe("rate limits", () => {
    it("per address: after 5 mails in 15 minutes, verify-request without sending", async () => {
      const adapter = MemoryAdapter()
      const { provider, sent } = capturingProvider()
      const debug = vi.fn()
      const results = []
      for (let i = 0; i < 6; i++) {
        // Different IPs: the address limit holds across clients.
        results.push(
          await requestEmailSignIn(
            requestParams(provider, adapter, {
              ip: `198.51.100.${i}`,
              email: i % 2 ? "ANN@example.com" : "ann@example.com ",
              logger: { error: vi.fn(), debug },
            }),
          ),
        )
      }
      expect(sent).toHaveLength(5)
      expect(results.map((r) => r.kind)).toEqual(Array(6).fill("verify-request"))
      expect(results[5]).toMatchObject({ status: "address-rate-limited" })
      expect(debug).toHaveBeenCalledWith("email_send_rate_limited", expect.anything())
      // Another address is unaffected.
      await requestEmailSignIn(requestParams(provider, adapter, { email: "bob@example.com" }))
      expect(sent).toHaveLength(6)
    })

    it("per address: the window ends after 15 minutes", async () => {
      vi.useFakeTimers({ toFake: ["Date"] })
      const store = new MemoryRateLimitStore()
      const adapter = MemoryAdapter()
      const { provider, sent } = capturingProvider({ rateLimit: { store } })
      for (let i = 0; i < 6; i++) {
        await requestEmailSignIn(requestParams(provider, adapter, { ip: `198.51.100.${i}` }))
      }
      expect(sent).toHaveLength(5)
      vi.advanceTimersByTime(15 * 60 * 1000)
      await requestEmailSignIn(requestParams(provider, adapter, { ip: "198.51.100.99" }))
      expect(sent).toHaveLength(6)
    })

    it("per IP: after 20 requests in 15 minutes, RateLimited with retry-after", async () => {
      const adapter = MemoryAdapter()
      const { provider, sent } = capturingProvider()
      for (let i = 0; i < 20; i++) {
        await requestEmailSignIn(
          requestParams(provider, adapter, { email: `user${i}@example.com` }),
        )
      }
      expect(sent).toHaveLength(20)
      const limited = requestEmailSignIn(
        requestParams(provider, adapter, { email: "fresh@example.com" }),
      )
      await expect(limited).rejects.toBeInstanceOf(RateLimited)
      await expect(limited).rejects.toMatchObject({
        details: { scope: "ip", retryAfterSeconds: expect.any(Number) },
      })
      expect(sent).toHaveLength(20)
      // Another client is unaffected.
      await requestEmailSignIn(
        requestParams(provider, adapter, { email: "fresh@example.com", ip: "192.0.2.1" }),
      )
      expect(sent).toHaveLength(21)
    })

    it("the IP refusal does not depend on the address (no enumeration)", async () => {
      const adapter = MemoryAdapter()
      await adapter.createUser!({ id: "u1", email: "known@example.com", emailVerified: null })
      const { provider } = capturingProvider({
        rateLimit: { store: new MemoryRateLimitStore(), perIp: { limit: 1, windowMs: 60_000 } },
      })
      await requestEmailSignIn(requestParams(provider, adapter, { email: "x@example.com" }))
      const errors = []
      for (const email of ["known@example.com", "unknown@example.com"]) {
        errors.push(
          await requestEmailSignIn(requestParams(provider, adapter, { email })).catch((e) => e),
        )
      }
      expect(errors.map((e) => [e.type, e.message])).toEqual([
        ["RateLimited", errors[0].message],
        ["RateLimited", errors[0].message],
      ])
    })

    it("custom rules, `false` per rule and `false` overall", async () => {
      const adapter = MemoryAdapter()
      const tight = capturingProvider({
        rateLimit: {
          store: new MemoryRateLimitStore(),
          perAddress: { limit: 1, windowMs: 60_000 },
          perIp: false,
        },
      })
      await requestEmailSignIn(requestParams(tight.provider, adapter))
      await requestEmailSignIn(requestParams(tight.provider, adapter))
      expect(tight.sent).toHaveLength(1)

      const off = capturingProvider({ rateLimit: false })
      for (let i = 0; i < 30; i++) await requestEmailSignIn(requestParams(off.provider, adapter))
      expect(off.sent).toHaveLength(30)
    })

    it("an unknown client IP skips only the IP limit", async () => {
      const adapter = MemoryAdapter()
      const { provider, sent } = capturingProvider()
      for (let i = 0; i < 7; i++) {
        await requestEmailSignIn(requestParams(provider, adapter, { ip: undefined }))
      }
      expect(sent).toHaveLength(5)
    })
  })
})

describe("verifyEmailSignIn", () => {
  const verify = (adapter: Adapter, link: { token: unknown; email: unknown }, secret = SECRET) =>
    verifyEmailSignIn({
      stampOf,
      provider: capturingProvider().provider,
      adapter,
      secret,
      token: link.token,
      email: link.email,
    })

  it("signs in a new user once, with emailVerified set", async () => {
    const adapter = MemoryAdapter()
    const { link } = await sendLink(adapter)
    const result = await verify(adapter, link)
    expect(result.isNewUser).toBe(true)
    expect(result.user).toMatchObject({ email: "ann@example.com" })
    expect(result.user.emailVerified).toEqual(result.emailVerified)
    expect(result.account).toEqual({
      provider: "nodemailer",
      type: "email",
      providerAccountId: "ann@example.com",
      userId: result.user.id,
    })
    await expect(verify(adapter, link)).rejects.toBeInstanceOf(Verification)
  })

  it("returns the existing user for a known address", async () => {
    const adapter = MemoryAdapter()
    await adapter.createUser!({ id: "u1", email: "ann@example.com", emailVerified: null })
    const { link } = await sendLink(adapter)
    const result = await verify(adapter, link)
    expect(result.isNewUser).toBe(false)
    expect(result.user).toMatchObject({ id: "u1", emailVerified: null })
    expect(result.emailVerified).toBeInstanceOf(Date)
  })

  it("refuses an expired link (t + 10 min) and consumes it", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    const adapter = MemoryAdapter()
    const { link } = await sendLink(adapter)
    vi.advanceTimersByTime(10 * 60 * 1000)
    await expect(verify(adapter, link)).rejects.toMatchObject({
      type: "Verification",
      details: { reason: "expired" },
    })
  })

  it("accepts a link used just before it expires", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    const adapter = MemoryAdapter()
    const { link } = await sendLink(adapter)
    vi.advanceTimersByTime(10 * 60 * 1000 - 1000)
    await expect(verify(adapter, link)).resolves.toMatchObject({ isNewUser: true })
  })

  it("refuses a tampered token and leaves the real one usable", async () => {
    const adapter = MemoryAdapter()
    const { link } = await sendLink(adapter)
    const flipped = (link.token[0] === "A" ? "B" : "A") + link.token.slice(1)
    await expect(verify(adapter, { ...link, token: flipped })).rejects.toBeInstanceOf(Verification)
    await expect(verify(adapter, link)).resolves.toBeDefined()
  })

  it("refuses the link with another email", async () => {
    const adapter = MemoryAdapter()
    const { link } = await sendLink(adapter)
    for (const email of ["eve@example.com", "ANN@example.com", " ann@example.com"]) {
      await expect(verify(adapter, { ...link, email })).rejects.toBeInstanceOf(Verification)
    }
  })

  it.each([
    [{ token: undefined, email: "ann@example.com" }],
    [{ token: "", email: "ann@example.com" }],
    [{ token: "x".repeat(513), email: "ann@example.com" }],
    [{ token: ["a", "b"], email: "ann@example.com" }],
    [{ token: "abc", email: undefined }],
    [{ token: "abc", email: "" }],
  ])("refuses malformed input %j with Verification", async (link) => {
    await expect(verify(MemoryAdapter(), link)).rejects.toBeInstanceOf(Verification)
  })

  it("refuses the stored HMAC used as a token (a database leak gives no link)", async () => {
    const adapter = MemoryAdapter()
    const { link } = await sendLink(adapter)
    // A leaked database row (the HMAC) used as the link token must not sign in.
    const hmac = await hashVerificationToken(link.token, SECRET)
    await expect(verify(adapter, { ...link, token: hmac })).rejects.toBeInstanceOf(Verification)
  })

  it("keeps pending links valid across a secret rotation", async () => {
    const adapter = MemoryAdapter()
    const { link } = await sendLink(adapter, { secret: "old-secret-old-secret-old-secret-old" })
    const rotated = ["new-secret-new-secret-new-secret-new", "old-secret-old-secret-old-secret-old"]
    await expect(verify(adapter, link, rotated as never)).resolves.toMatchObject({
      isNewUser: true,
    })
    // A secret that was never configured does not verify.
    const { link: other } = await sendLink(adapter)
    await expect(
      verify(adapter, other, "unrelated-secret-unrelated-secret"),
    ).rejects.toBeInstanceOf(Verification)
  })

  it("signs new links with the first secret", async () => {
    const { adapter, stored } = recordingAdapter()
    const { mail } = await sendLink(adapter, {
      secret: ["first-secret-xxxxxxxxxxxxxxxxxxxx", SECRET],
    })
    expect(stored[0]!.token).toBe(
      await storedLinkValue(mail.token, grantOf(mail), "none", "first-secret-xxxxxxxxxxxxxxxxxxxx"),
    )
  })

  it("uses the provider's own secret over the config's", async () => {
    const adapter = MemoryAdapter()
    const { provider, sent } = capturingProvider({ secret: "provider-secret-provider-secret-x" })
    await requestEmailSignIn(requestParams(provider, adapter))
    const link = linkParams(sent[0]!.url)
    await expect(
      verifyEmailSignIn({ stampOf, provider, adapter, secret: "something-else", ...link }),
    ).resolves.toBeDefined()
  })

  it("rechecks what a loosely matching adapter returns", async () => {
    const adapter = MemoryAdapter()
    const { link } = await sendLink(adapter)
    const loose: Adapter = {
      ...adapter,
      // Pretends every lookup matches the real row (e.g. a case-insensitive collation).
      useVerificationToken: async ({ token }) => ({
        identifier: "ANN@example.com",
        token,
        expires: new Date(Date.now() + 60_000),
      }),
    }
    await expect(verify(loose, link)).rejects.toMatchObject({ details: { reason: "mismatch" } })
  })

  it("works once under concurrent clicks", async () => {
    const adapter = MemoryAdapter()
    const { link } = await sendLink(adapter)
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => verify(adapter, link)))
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1)
    for (const r of results.filter((r) => r.status === "rejected")) {
      expect((r as PromiseRejectedResult).reason).toBeInstanceOf(Verification)
    }
  })

  it("requires an adapter with useVerificationToken", async () => {
    await expect(
      verifyEmailSignIn({
        stampOf,
        provider: capturingProvider().provider,
        adapter: {},
        secret: SECRET,
        token: "t",
        email: "a@b.c",
      }),
    ).rejects.toBeInstanceOf(MissingAdapterMethods)
  })
})
