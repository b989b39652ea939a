import { afterEach, describe, expect, it, vi } from "vitest"
import { withAdapterFeature } from "../../src/adapters.js"
import { Auth, getSession, setEnvDefaults } from "../../src/index.js"
import { resolveConfig } from "../../src/kernel/config/resolve.js"
import { InvalidConfiguration } from "../../src/kernel/errors/errors.js"
import type { Adapter } from "../../src/kernel/types/adapters.js"
import { withPlainProviders } from "../../src/plain-providers.js"
import Credentials from "../../src/providers/credentials.js"
import type { AuthConfig } from "../../src/types.js"
import { credentialsProvider, makeConfig, recordingLogger, req, SECRET } from "./helpers.js"

function deepFreeze<T>(o: T): T {
  if (o && typeof o === "object" && !Object.isFrozen(o)) {
    Object.freeze(o)
    for (const v of Object.values(o)) deepFreeze(v)
  }
  return o
}

afterEach(() => vi.unstubAllEnvs())

describe("setEnvDefaults", () => {
  it("fills the config in place and returns it, so Auth() sees the env values", async () => {
    const config: AuthConfig = { providers: [credentialsProvider()] }
    const returned = setEnvDefaults({ AUTH_SECRET: SECRET, AUTH_TRUST_HOST: "true" }, config)
    expect(returned).toBe(config)
    expect(config).toMatchObject({ secret: [SECRET], trustHost: true })
    // The Auth.js calling pattern: the return value ignored.
    const res = await Auth(req("/auth/session"), config)
    expect(res.status).toBe(200)
    expect(await res.json()).toBeNull()
  })

  it("changes nothing on a second call: set values win, providers keep their identity", () => {
    const config: AuthConfig = { providers: [credentialsProvider()] }
    setEnvDefaults({ AUTH_SECRET: "first", AUTH_URL: "https://a.example/auth" }, config)
    const providers = config.providers
    const snapshot = { ...config }
    setEnvDefaults({ AUTH_SECRET: "second", AUTH_URL: "https://b.example/x" }, config)
    expect(config).toEqual(snapshot)
    expect(config.providers).toBe(providers)
  })

  it("never touches the caller's providers: a shallow copy keeps the original as it was", () => {
    // What a binding that memoises per user config does: fill a copy per set of env values.
    const github = { id: "github", name: "GitHub", type: "oauth" as const }
    const user = deepFreeze({ providers: [github, credentialsProvider()] }) as AuthConfig
    const a = setEnvDefaults({ AUTH_SECRET: "a", AUTH_GITHUB_ID: "ida" }, { ...user })
    const b = setEnvDefaults({ AUTH_SECRET: "b", AUTH_GITHUB_ID: "idb" }, { ...user })
    expect(a).toMatchObject({ secret: ["a"], providers: [{ clientId: "ida" }, {}] })
    expect(b).toMatchObject({ secret: ["b"], providers: [{ clientId: "idb" }, {}] })
    expect(user).toEqual({ providers: [github, expect.anything()] })
    expect(github).not.toHaveProperty("clientId")
    expect(resolveConfig(a).secret).toEqual(["a"])
    expect(resolveConfig(b).secret).toEqual(["b"])
  })

  it.each([
    [{ AUTH_URL: "https://app.example.com" }, true],
    [{ VERCEL: "1" }, true],
    [{ CF_PAGES: "1" }, true],
    [{ NODE_ENV: "development" }, true],
    [{ NODE_ENV: "production" }, undefined],
    [{ NODE_ENV: "test" }, undefined],
    [{ VERCEL: "0" }, undefined],
    [{}, undefined],
    [{ AUTH_TRUST_HOST: "false", VERCEL: "1" }, false],
    [{ AUTH_TRUST_HOST: "false", AUTH_URL: "https://app.example.com" }, false],
    [{ AUTH_TRUST_HOST: "maybe", NODE_ENV: "development" }, true],
  ])("infers trustHost from %j → %s, as Auth.js does for hosts set safely", (env, expected) => {
    expect(setEnvDefaults(env, { providers: [] }).trustHost).toBe(expected)
  })

  it("orders rotation secrets as Auth.js does: [S3, S2, S1, S]", () => {
    const env = { AUTH_SECRET: "s0", AUTH_SECRET_1: "s1", AUTH_SECRET_2: "s2", AUTH_SECRET_3: "s3" }
    expect(setEnvDefaults(env, { providers: [] }).secret).toEqual(["s3", "s2", "s1", "s0"])
    expect(
      setEnvDefaults({ AUTH_SECRET: "s0", AUTH_SECRET_2: "s2" }, { providers: [] }).secret,
    ).toEqual(["s2", "s0"])
    expect(setEnvDefaults(env, { providers: [], secret: "mine" }).secret).toBe("mine")
  })

  it.each([
    ["true", true],
    ["1", true],
    ["TRUE", true],
    ["false", false],
    ["0", false],
    ["", false],
    ["no", false],
    ["maybe", undefined],
  ])("parses AUTH_TRUST_HOST=%j strictly → %s", (value, expected) => {
    expect(setEnvDefaults({ AUTH_TRUST_HOST: value }, { providers: [] }).trustHost).toBe(expected)
  })

  it("keeps an explicit trustHost", () => {
    expect(
      setEnvDefaults({ AUTH_TRUST_HOST: "true" }, { providers: [], trustHost: false }).trustHost,
    ).toBe(false)
  })

  it("takes url and basePath from AUTH_URL", () => {
    const a = setEnvDefaults({ AUTH_URL: "https://app.example.com/api/auth" }, { providers: [] })
    expect(a).toMatchObject({ url: "https://app.example.com/api/auth", basePath: "/api/auth" })
    const b = setEnvDefaults({ AUTH_URL: "https://app.example.com" }, { providers: [] })
    expect(b.basePath).toBeUndefined()
    const c = setEnvDefaults(
      { AUTH_URL: "https://app.example.com/x" },
      { providers: [], basePath: "/auth" },
    )
    expect(c.basePath).toBe("/auth")
    expect(
      setEnvDefaults({ AUTH_REDIRECT_PROXY_URL: "https://p.example.com/auth" }, { providers: [] })
        .redirectProxyUrl,
    ).toBe("https://p.example.com/auth")
  })

  it("fills provider credentials from AUTH_<ID>_* without mutating providers", () => {
    const github = deepFreeze({ id: "git-hub", name: "GitHub", type: "oauth" as const })
    const factory = (o: Record<string, unknown> = {}) => ({
      id: "google",
      name: "Google",
      type: "oidc" as const,
      ...o,
    })
    const env = {
      AUTH_GIT_HUB_ID: "gid",
      AUTH_GIT_HUB_SECRET: "gs",
      AUTH_GOOGLE_ID: "go",
      AUTH_GOOGLE_ISSUER: "https://accounts.google.com",
    }
    const next = setEnvDefaults(env, { providers: [github, factory] })
    expect(next.providers[0]).toMatchObject({ clientId: "gid", clientSecret: "gs" })
    expect(next.providers[1]).toMatchObject({
      clientId: "go",
      issuer: "https://accounts.google.com",
    })
    expect(github).not.toHaveProperty("clientId")
  })
})

describe("configuration check", () => {
  it("reports every problem at once", async () => {
    vi.stubEnv("NODE_ENV", "production")
    const config = {
      providers: [
        Credentials({ authorize: () => null }),
        Credentials({ authorize: () => null }),
        { id: "x", name: "X", type: "credentials" } as never,
        { id: "gh", name: "GH", type: "oauth" } as never,
      ],
      secret: "short",
      session: { strategy: "database" as const, maxAge: -1 },
      pages: { signIn: "javascript:alert(1)" },
      logger: recordingLogger().logger,
    }
    // Plain provider objects get their feature as Auth() gives it to them.
    const { configError } = resolveConfig(await withPlainProviders(config))
    expect(configError).toBeInstanceOf(InvalidConfiguration)
    const types = configError!.problems.map((p) => p.type).sort()
    expect(types).toEqual([
      "InvalidEndpoints",
      "InvalidParameter",
      "InvalidParameter",
      "InvalidParameter",
      "InvalidProvider",
      "MissingAdapter",
      "MissingAuthorize",
    ])
    expect(configError!.message).toContain("Two providers")
  })

  it("a missing secret is a problem; a short one only warns outside production", () => {
    expect(
      resolveConfig({ providers: [], logger: recordingLogger().logger }).configError!.problems[0]!
        .type,
    ).toBe("MissingSecret")
    vi.stubEnv("NODE_ENV", "development")
    const rec = recordingLogger()
    expect(
      resolveConfig({ providers: [], secret: "short", logger: rec.logger }).configError,
    ).toBeUndefined()
    expect(rec.warnings()).toContain("secret-weak")
  })

  it("lists missing adapter methods", () => {
    const config = {
      providers: [],
      secret: SECRET,
      adapter: withAdapterFeature({ getSessionAndUser: () => null }),
      logger: recordingLogger().logger,
    }
    const problem = resolveConfig(config).configError!.problems[0]!
    expect(problem.type).toBe("MissingAdapterMethods")
    expect(problem.message).toBe("The adapter lacks: createSession, deleteSession, updateSession")
  })

  /** An Auth.js-style adapter: an object of the database-session methods, no feature. */
  const sessionMethodsOnly = (): Adapter =>
    ({
      createSession: async () => null,
      getSessionAndUser: async () => null,
      updateSession: async () => null,
      deleteSession: async () => {},
    }) as unknown as Adapter

  it("an adapter that carries no code to serve it (an Auth.js adapter) given to Auth() is refused, naming withAdapterFeature", () => {
    const plain = sessionMethodsOnly()
    const problem = resolveConfig({ ...makeConfig(), adapter: plain }).configError?.problems[0]
    expect(problem?.type).toBe("InvalidParameter")
    expect(problem?.message).toContain("adapter: withAdapterFeature(")
    expect(problem?.message).toContain("withPlainProviders()")
    // Given its feature, the same adapter is accepted.
    const served = resolveConfig({ ...makeConfig(), adapter: withAdapterFeature(plain) })
    expect(served.configError).toBeUndefined()
  })

  it("withAdapterFeature keeps a class-based adapter's prototype methods, and copies a frozen one", async () => {
    class SessionsOnly {
      async createSession() {
        return null
      }
      async getSessionAndUser() {
        return null
      }
      async updateSession() {
        return null
      }
      async deleteSession() {}
    }
    const instance = new SessionsOnly()
    const marked = withAdapterFeature(instance as unknown as Adapter)
    expect(marked).toBe(instance)
    expect(resolveConfig({ ...makeConfig(), adapter: marked }).configError).toBeUndefined()
    const frozen = Object.freeze(new SessionsOnly()) as unknown as Adapter
    const copy = withAdapterFeature(frozen)
    expect(copy).not.toBe(frozen)
    expect(copy.getSessionAndUser).toBe(frozen.getSessionAndUser)
    expect(resolveConfig({ ...makeConfig(), adapter: copy }).configError).toBeUndefined()
  })

  it("withPlainProviders gives an Auth.js adapter its feature (the Qwik bindings' path)", async () => {
    const plain = sessionMethodsOnly()
    const config = await withPlainProviders({ ...makeConfig(), adapter: plain })
    expect(resolveConfig(config).configError).toBeUndefined()
  })

  it.each([
    ["twoFactor", { issuer: "App" }, "TwoFactor({ … }) from @latchkey/core/two-factor"],
    ["organizations", { maxPerUser: 3 }, "Organizations({ … }) from @latchkey/core/organizations"],
  ])(
    "a plain %s given to Auth() is refused, naming its factory (never silently ignored)",
    (key, value, factory) => {
      const config = { ...makeConfig(), [key]: value } as AuthConfig
      const problem = resolveConfig(config).configError?.problems.find((p) =>
        p.message.includes(key),
      )
      expect(problem?.type).toBe("InvalidParameter")
      expect(problem?.message).toContain(factory)
    },
  )

  it("answers 500 JSON (no details) for API calls and the error page for page requests", async () => {
    const rec = recordingLogger()
    const config = { providers: [], logger: rec.logger, trustHost: true }
    const api = await Auth(req("/auth/session"), config)
    expect(api.status).toBe(500)
    const body = (await api.json()) as { error: { type: string; message: string } }
    expect(body.error.type).toBe("Configuration")
    expect(body.error.message).not.toContain("secret")
    const page = await Auth(req("/auth/signin"), config)
    expect(page.status).toBe(500)
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8")
    const custom = await Auth(req("/auth/signin"), { ...config, pages: { error: "/oops" } })
    expect(custom.status).toBe(302)
    expect(custom.headers.get("location")).toBe("http://app.example.com/oops?error=Configuration")
    await expect(
      getSession(req("/", { headers: { cookie: "a=1" } }), config),
    ).rejects.toBeInstanceOf(InvalidConfiguration)
    // Logged once per config object (two objects here), with every problem.
    expect(
      rec.calls.filter((c) => c.level === "error" && c.args[0] instanceof InvalidConfiguration),
    ).toHaveLength(2)
  })

  it.each(["/auth/signin", "/auth/signout", "/auth/error", "/auth/verify-request"])(
    "an untrusted host on the page %s renders the error page (500), not JSON",
    async (path) => {
      const config = makeConfig({ trustHost: false })
      const page = await Auth(req(path), config)
      expect(page.status).toBe(500)
      expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8")
      expect(page.headers.get("x-frame-options")).toBe("DENY")
      const html = await page.text()
      expect(html).toContain("<title>Error</title>")
      // No link is built from the untrusted Host header.
      expect(html).not.toContain("app.example.com")
      // API calls still answer JSON.
      const api = await Auth(req("/auth/session"), config)
      expect(api.headers.get("content-type")).toBe("application/json")
    },
  )

  it("a config error on pages.error itself renders the page, also behind a proxy (AUTH_URL)", async () => {
    const config = {
      providers: [],
      logger: recordingLogger().logger,
      url: "https://public.example/auth",
      pages: { error: "/auth/error" },
    }
    const res = await Auth(new Request("http://10.0.0.5:3000/auth/error"), config)
    expect(res.status).toBe(500)
    expect(res.headers.get("content-type")).toBe("text/html; charset=utf-8")
    const other = await Auth(new Request("http://10.0.0.5:3000/auth/signin"), config)
    expect(other.headers.get("location")).toBe(
      "https://public.example/auth/error?error=Configuration",
    )
  })

  it("an untrusted host on a page redirects to pages.error by path, without a loop", async () => {
    const config = makeConfig({ trustHost: false, pages: { error: "/oops" } })
    const res = await Auth(req("/auth/signin"), config)
    expect(res.status).toBe(302)
    expect(res.headers.get("location")).toBe("/oops?error=Configuration")
    const absolute = makeConfig({ trustHost: false, pages: { error: "https://help.example/x" } })
    expect((await Auth(req("/auth/signout"), absolute)).headers.get("location")).toBe(
      "https://help.example/x?error=Configuration",
    )
    const loop = makeConfig({ trustHost: false, pages: { error: "/auth/error" } })
    const page = await Auth(req("/auth/error"), loop)
    expect(page.status).toBe(500)
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8")
  })

  it("resolves once per config object; factories are called once; the config is not mutated", async () => {
    const factory = vi.fn(() => credentialsProvider())
    const config = deepFreeze(makeConfig({ providers: [factory] }))
    for (let i = 0; i < 3; i++) await Auth(req("/auth/providers"), config)
    expect(factory).toHaveBeenCalledTimes(1)
    expect(resolveConfig(config)).toBe(resolveConfig(config))
    expect(Object.isFrozen(resolveConfig(config))).toBe(true)
  })

  it("merges Auth.js-style provider options", async () => {
    const provider = {
      id: "credentials",
      name: "Credentials",
      type: "credentials",
      credentials: {},
      authorize: () => null,
      options: { name: "Mine" },
    } as never
    const config = await withPlainProviders(makeConfig({ providers: [provider] }))
    const res = await Auth(req("/auth/providers"), config)
    expect(((await res.json()) as Record<string, { name: string }>).credentials!.name).toBe("Mine")
  })

  it("warns experimental-webauthn once when enabled", async () => {
    const rec = recordingLogger()
    const config = makeConfig({ experimental: { enableWebAuthn: true }, logger: rec.logger })
    await Auth(req("/auth/session"), config)
    await Auth(req("/auth/session"), config)
    expect(rec.warnings().filter((w) => w === "experimental-webauthn")).toHaveLength(1)
  })
})
