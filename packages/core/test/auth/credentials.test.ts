import { describe, expect, it, vi } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { Auth } from "../../src/index.js"
import { AccessDenied, CredentialsSignin } from "../../src/kernel/errors/errors.js"
import Credentials from "../../src/providers/credentials.js"
import {
  alice,
  Jar,
  makeConfig,
  ORIGIN,
  recordingLogger,
  req,
  setCookies,
  signInWithCredentials,
} from "./helpers.js"

class InvalidPassword extends CredentialsSignin {
  override code = "invalid_password"
}

describe("credentials sign-in", () => {
  it("the factory has Auth.js defaults", () => {
    const p = Credentials({ authorize: () => null })
    expect(p).toMatchObject({
      id: "credentials",
      name: "Credentials",
      type: "credentials",
      credentials: {},
    })
  })

  it("passes the posted fields (without csrfToken) and the original request to authorize", async () => {
    const authorize = vi.fn(async () => alice)
    const config = makeConfig({ providers: [Credentials({ authorize })] })
    await signInWithCredentials(Auth, config, new Jar(), {
      username: "a",
      password: "b",
      csrfToken: "t",
    })
    const [credentials, request] = authorize.mock.calls[0] as unknown as [
      Record<string, unknown>,
      Request,
    ]
    expect({ ...credentials }).toEqual({ username: "a", password: "b" })
    expect(request).toBeInstanceOf(Request)
    expect(await request.text()).toBe("username=a&password=b&csrfToken=t")
  })

  it("accepts a JSON body", async () => {
    const res = await Auth(
      req("/auth/callback/credentials", { json: { username: "alice", password: "wonderland" } }),
      makeConfig(),
    )
    expect(res.status).toBe(303)
  })

  it("null from authorize → sign-in page with error=CredentialsSignin&code=credentials", async () => {
    const { res } = await signInWithCredentials(Auth, makeConfig(), new Jar(), {
      username: "alice",
      password: "nope",
    })
    expect(res.status).toBe(303)
    expect(res.headers.get("location")).toBe(
      `${ORIGIN}/auth/signin?error=CredentialsSignin&code=credentials`,
    )
    expect(setCookies(res).some((c) => c.name.includes("session-token"))).toBe(false)
  })

  it("a CredentialsSignin subclass sets code=; a custom sign-in page receives it", async () => {
    const config = makeConfig({
      pages: { signIn: "/login?from=auth" },
      providers: [
        Credentials({
          authorize: () => {
            throw new InvalidPassword()
          },
        }),
      ],
    })
    const { res } = await signInWithCredentials(Auth, config)
    expect(res.headers.get("location")).toBe(
      `${ORIGIN}/login?from=auth&error=CredentialsSignin&code=invalid_password`,
    )
  })

  it("another error thrown by authorize → error page with error=Configuration", async () => {
    const config = makeConfig({
      providers: [
        Credentials({
          authorize: () => {
            throw new Error("db exploded")
          },
        }),
      ],
    })
    const { res } = await signInWithCredentials(Auth, config)
    expect(res.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Configuration`)
  })

  it("with database sessions, a user unknown to the adapter is a logged error that says so", async () => {
    const rec = recordingLogger()
    const adapter = MemoryAdapter()
    const config = makeConfig({ adapter, session: { strategy: "database" }, logger: rec.logger })
    const { res, jar } = await signInWithCredentials(Auth, config)
    expect(res.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=Configuration`)
    expect(jar.get("authjs.session-token")).toBeUndefined()
    const logged = rec.calls.find((c) => c.level === "error")?.args[0] as Error
    expect(logged.name).toBe("CallbackRouteError")
    expect(logged.message).toContain("not in the adapter's users table")

    // The same sign-in works once the user is the adapter's.
    await adapter.createUser!({ ...alice, emailVerified: null })
    const again = await signInWithCredentials(Auth, config)
    expect(again.jar.get("authjs.session-token")).toBeDefined()
  })

  it("works with any id for a credentials-type provider", async () => {
    const config = makeConfig({ providers: [Credentials({ id: "otp", authorize: () => alice })] })
    const res = await Auth(req("/auth/callback/otp", { form: {} }), config)
    expect(res.status).toBe(303)
    expect(setCookies(res).some((c) => c.name === "authjs.session-token")).toBe(true)
  })

  it("assigns a random id when authorize returns none, and a string id otherwise", async () => {
    const jwt = vi.fn(({ token }) => token)
    const numeric = makeConfig({
      providers: [Credentials({ authorize: () => ({ id: 42 as unknown as string, name: "N" }) })],
      callbacks: { jwt },
    })
    await signInWithCredentials(Auth, numeric)
    expect(jwt.mock.calls[0]![0].token.sub).toBe("42")
    const none = makeConfig({
      providers: [Credentials({ authorize: () => ({ name: "N" }) })],
      callbacks: { jwt },
    })
    await signInWithCredentials(Auth, none)
    expect(jwt.mock.calls[1]![0].token.sub).toMatch(/^[0-9a-f-]{36}$/)
  })

  describe("signIn callback outcomes", () => {
    const run = (
      signIn: NonNullable<NonNullable<Parameters<typeof makeConfig>[0]>["callbacks"]>["signIn"],
    ) =>
      signInWithCredentials(Auth, makeConfig({ callbacks: { signIn } }), new Jar(), {
        username: "alice",
        password: "wonderland",
        callbackUrl: "/next",
      })

    it("true continues", async () => {
      const { res } = await run(() => true)
      expect(res.headers.get("location")).toBe(`${ORIGIN}/next`)
    })
    it("false → AccessDenied on the error page, no session", async () => {
      const { res, jar } = await run(() => false)
      expect(res.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=AccessDenied`)
      expect(jar.get("authjs.session-token")).toBeUndefined()
    })
    it("a string → redirect there (through the redirect callback), no session", async () => {
      const { res, jar } = await run(() => "/onboarding")
      expect(res.headers.get("location")).toBe(`${ORIGIN}/onboarding`)
      expect(jar.get("authjs.session-token")).toBeUndefined()
      const { res: evil } = await run(() => "https://evil.com/")
      expect(evil.headers.get("location")).toBe(ORIGIN)
    })
    it("a throw → AccessDenied carrying the original message", async () => {
      const errors: Error[] = []
      const config = makeConfig({
        callbacks: {
          signIn: () => {
            throw new Error("banned user")
          },
        },
        logger: { error: (e) => void errors.push(e), warn: () => {}, debug: () => {} },
      })
      const { res } = await signInWithCredentials(Auth, config)
      expect(res.headers.get("location")).toBe(`${ORIGIN}/auth/error?error=AccessDenied`)
      expect(errors[0]).toBeInstanceOf(AccessDenied)
      expect(errors[0]!.message).toBe("banned user")
    })
    it("receives user, account and credentials", async () => {
      const signIn = vi.fn(() => true)
      await run(signIn)
      expect(signIn).toHaveBeenCalledWith({
        user: alice,
        account: { providerAccountId: "user-alice", type: "credentials", provider: "credentials" },
        credentials: expect.objectContaining({ username: "alice" }),
      })
    })
  })

  it("runs jwt with trigger signIn and fires the signIn event", async () => {
    const jwt = vi.fn(({ token }) => token)
    const signIn = vi.fn()
    await signInWithCredentials(Auth, makeConfig({ callbacks: { jwt }, events: { signIn } }))
    expect(jwt.mock.calls[0]![0]).toMatchObject({
      trigger: "signIn",
      isNewUser: false,
      user: alice,
      account: { provider: "credentials" },
    })
    expect(signIn).toHaveBeenCalledWith({
      user: alice,
      account: expect.objectContaining({ type: "credentials" }),
      isNewUser: false,
    })
  })

  it("POST /signin/credentials goes to the sign-in form", async () => {
    const res = await Auth(
      req("/auth/signin/credentials", { form: { callbackUrl: "/x" } }),
      makeConfig(),
    )
    expect(res.status).toBe(303)
    expect(res.headers.get("location")).toBe(
      `${ORIGIN}/auth/signin?callbackUrl=http%3A%2F%2Fapp.example.com%2Fx`,
    )
    const bare = await Auth(req("/auth/signin", { form: {} }), makeConfig())
    expect(bare.headers.get("location")).toBe(`${ORIGIN}/auth/signin`)
  })
})
