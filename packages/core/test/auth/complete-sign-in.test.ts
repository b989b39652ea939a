import { describe, expect, it, vi } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { Auth } from "../../src/index.js"
import { FEATURE, type Feature } from "../../src/kernel/feature/feature.js"
import { resolveCallbackUrl } from "../../src/kernel/http/callback-url.js"
import { completeSignIn } from "../../src/kernel/sign-in/complete-sign-in.js"
import type { AdapterUser } from "../../src/kernel/types/adapters.js"
import type { Account } from "../../src/types.js"
import {
  credentialsProvider,
  Jar,
  makeConfig,
  ORIGIN,
  req,
  signInWithCredentials,
} from "./helpers.js"

/**
 * A stand-in OAuth callback (issue 4 brings the real one): the "provider" vouches for the
 * user named in the query. It proves completeSignIn's account-linking rules for OAuth kinds.
 */
const fakeOAuth: Feature = {
  id: "fake-oauth",
  callback: async (ctx, provider) => {
    const q = ctx.parsed.query
    const account: Account = {
      provider: provider.id,
      providerAccountId: q.sub!,
      type: "oauth",
      access_token: "at",
    }
    const user = { id: q.sub!, name: q.name ?? null, email: q.email ?? null }
    // verified=unknown: the provider says nothing about the email (as Facebook or Entra).
    const verified = q.verified === "unknown" ? undefined : q.verified !== "false"
    const profile = { sub: q.sub, email: q.email, email_verified: verified }
    return completeSignIn(ctx, provider, {
      user,
      account,
      profile,
      emailVerified: verified,
      callbackUrl: await resolveCallbackUrl(ctx),
    })
  },
}

const fake = (allowDangerousEmailAccountLinking = false) => ({
  id: "fake",
  name: "Fake",
  type: "oauth" as const,
  issuer: "https://idp.example",
  allowDangerousEmailAccountLinking,
  [FEATURE]: fakeOAuth,
})

async function setup(opts: { linking?: boolean; strategy?: "jwt" | "database" } = {}) {
  const adapter = MemoryAdapter()
  const events = { createUser: vi.fn(), linkAccount: vi.fn(), signIn: vi.fn() }
  const config = makeConfig({
    adapter,
    providers: [fake(opts.linking), credentialsProvider()],
    session: { strategy: opts.strategy ?? "database" },
    pages: { newUser: "/welcome" },
    events,
  })
  const callback = (q: Record<string, string>, jar = new Jar()) =>
    Auth(req(`/auth/callback/fake?${new URLSearchParams(q)}`, { jar }), config).then((res) => {
      jar.take(res)
      return { res, jar }
    })
  return { adapter, config, events, callback }
}

describe("completeSignIn with an adapter (OAuth linking rules)", () => {
  it("new account, unknown email → create user, link, new session, newUser page", async () => {
    const { adapter, events, callback } = await setup()
    const { res, jar } = await callback({
      sub: "s1",
      email: "new@example.com",
      name: "New",
      callbackUrl: "/home",
    })
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe(
      `${ORIGIN}/welcome?callbackUrl=http%3A%2F%2Fapp.example.com%2Fhome`,
    )
    const user = await adapter.getUserByAccount!({ provider: "fake", providerAccountId: "s1" })
    // The provider vouches for the email: the new row's address is proven (it cannot be claimed).
    expect(user).toMatchObject({ email: "new@example.com", emailVerified: expect.any(Date) })
    expect(events.createUser).toHaveBeenCalledTimes(1)
    expect(events.linkAccount).toHaveBeenCalledTimes(1)
    expect(events.signIn).toHaveBeenCalledWith(expect.objectContaining({ isNewUser: true }))
    expect((await adapter.getSessionAndUser!(jar.get("authjs.session-token")!))!.user.id).toBe(
      user!.id,
    )
  })

  it("known account → that user, no new user, callbackUrl", async () => {
    const { events, callback } = await setup()
    await callback({ sub: "s1", email: "a@example.com" })
    const { res } = await callback({ sub: "s1", email: "a@example.com", callbackUrl: "/x" })
    expect(res.headers.get("location")).toBe(`${ORIGIN}/x`)
    expect(events.createUser).toHaveBeenCalledTimes(1)
  })

  it("unknown account with the email of an existing (proven) user → OAuthAccountNotLinked", async () => {
    const { adapter, callback } = await setup()
    await adapter.createUser!({
      id: "u1",
      email: "taken@example.com",
      emailVerified: new Date(),
    } as AdapterUser)
    const { res } = await callback({ sub: "s2", email: "taken@example.com" })
    expect(res.headers.get("location")).toBe(`${ORIGIN}/auth/signin?error=OAuthAccountNotLinked`)
  })

  it("allowDangerousEmailAccountLinking links to a proven row, without a createUser event, unless the email is not reported verified", async () => {
    const { adapter, events, callback } = await setup({ linking: true })
    await adapter.createUser!({
      id: "u1",
      email: "taken@example.com",
      emailVerified: new Date(),
    } as AdapterUser)
    const refused = await callback({ sub: "s2", email: "taken@example.com", verified: "false" })
    expect(refused.res.headers.get("location")).toContain("error=OAuthAccountNotLinked")
    const unknown = await callback({ sub: "s2", email: "taken@example.com", verified: "unknown" })
    expect(unknown.res.headers.get("location")).toContain("error=OAuthAccountNotLinked")
    const { res } = await callback({ sub: "s2", email: "taken@example.com" })
    expect(res.headers.get("location")).toBe(ORIGIN)
    expect(
      (await adapter.getUserByAccount!({ provider: "fake", providerAccountId: "s2" }))!.id,
    ).toBe("u1")
    expect(events.createUser).not.toHaveBeenCalled()
  })

  it("signed in + new account → linked to the current user; account of another user → refused", async () => {
    const { adapter, callback } = await setup()
    const first = await callback({ sub: "s1", email: "a@example.com" })
    const userId = (await adapter.getUserByAccount!({ provider: "fake", providerAccountId: "s1" }))!
      .id
    await callback({ sub: "s9", email: "other@example.com" }, first.jar)
    expect(
      (await adapter.getUserByAccount!({ provider: "fake", providerAccountId: "s9" }))!.id,
    ).toBe(userId)
    await callback({ sub: "s3", email: "b@example.com" })
    const clash = await callback({ sub: "s3", email: "b@example.com" }, first.jar)
    expect(clash.res.headers.get("location")).toContain("error=OAuthAccountNotLinked")
  })

  it("JWT strategy with an adapter: sub is the stored user id and trigger is signUp on first sign-in", async () => {
    const jwt = vi.fn(({ token }) => token)
    const adapter = MemoryAdapter()
    const config = makeConfig({
      adapter,
      providers: [fake()],
      session: { strategy: "jwt" },
      callbacks: { jwt },
    })
    await Auth(req("/auth/callback/fake?sub=s1&email=j@example.com"), config)
    const stored = await adapter.getUserByAccount!({ provider: "fake", providerAccountId: "s1" })
    expect(jwt.mock.calls[0]![0]).toMatchObject({
      trigger: "signUp",
      isNewUser: true,
      token: { sub: stored!.id },
    })
  })

  it("credentials never touch user/account tables", async () => {
    const { adapter } = await setup({ strategy: "jwt" })
    const calls: string[] = []
    const spy = new Proxy(adapter, {
      get: (t, p: string) => {
        const fn = (t as Record<string, unknown>)[p]
        return typeof fn !== "function"
          ? fn
          : (...args: unknown[]) => {
              calls.push(p)
              return (fn as (...a: unknown[]) => unknown).apply(t, args)
            }
      },
    })
    await signInWithCredentials(Auth, makeConfig({ adapter: spy, session: { strategy: "jwt" } }))
    expect(calls).toEqual([])
  })
})
