import { inspect } from "node:util"
import { afterEach, describe, expect, it, vi } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { Auth } from "../../src/index.js"
import { EventError } from "../../src/kernel/errors/errors.js"
import {
  alice,
  Jar,
  makeConfig,
  recordingLogger,
  req,
  SECRET,
  setCookies,
  signInWithCredentials,
} from "./helpers.js"

afterEach(() => vi.restoreAllMocks())

describe("logging", () => {
  it("an adapter failure logs the method and code only: no cause, no value the driver quoted", async () => {
    const rec = recordingLogger()
    const token = "raw-session-token-quoted-by-the-driver"
    const driverError = Object.assign(new Error(`Key ("sessionToken")=(${token}) already exists`), {
      code: "23505",
      params: [token],
    })
    const adapter = {
      ...MemoryAdapter(),
      getSessionAndUser: async () => {
        throw driverError
      },
    }
    const config = makeConfig({ logger: rec.logger, adapter, session: { strategy: "database" } })
    await Auth(
      req("/auth/session", { headers: { cookie: `authjs.session-token=${token}` } }),
      config,
    )
    const logged = inspect(rec.calls, { depth: 20, showHidden: true })
    expect(logged).toContain("The adapter's getSessionAndUser() failed: error 23505")
    expect(logged).not.toContain(token)
  })

  it.each(["jwt", "database"] as const)(
    "no secret, token, cookie value or CSRF token reaches any log call (%s)",
    async (strategy) => {
      const rec = recordingLogger()
      const adapter = MemoryAdapter()
      await adapter.createUser!({ ...alice, email: alice.email, emailVerified: null })
      const config = makeConfig({
        debug: true,
        logger: rec.logger,
        session: { strategy, updateAge: 0 },
        ...(strategy === "database" ? { adapter } : {}),
      })
      const seen = new Set<string>([SECRET])
      const collect = (res: Response) => {
        for (const c of setCookies(res))
          if (c.value) seen.add(c.value).add(encodeURIComponent(c.value))
        return res
      }
      const jar = new Jar()
      const csrf = collect(await Auth(req("/auth/csrf", { jar }), config))
      jar.take(csrf)
      const { csrfToken } = (await csrf.json()) as { csrfToken: string }
      seen.add(csrfToken)
      const plain = (path: string, form: Record<string, string>) =>
        req(path, { form: { ...form, csrfToken }, jar, headers: { "x-no-fetch-metadata": "1" } })
      jar.take(
        collect(
          await Auth(
            plain("/auth/callback/credentials", { username: "alice", password: "wonderland" }),
            config,
          ),
        ),
      )
      jar.take(collect(await Auth(req("/auth/session", { jar }), config)))
      jar.take(collect(await Auth(plain("/auth/session", { data: "x" }), config)))
      jar.take(collect(await Auth(plain("/auth/signout", {}), config)))
      // Failures log too: a bad password, a forged cookie, a cross-site post.
      await Auth(
        plain("/auth/callback/credentials", { username: "alice", password: "wonderland-wrong" }),
        config,
      )
      await Auth(
        req("/auth/session", { headers: { cookie: `authjs.session-token=${[...seen][1]}x` } }),
        config,
      )
      await Auth(
        req("/auth/signout", { form: { csrfToken }, headers: { "sec-fetch-site": "cross-site" } }),
        config,
      )

      expect(rec.calls.length).toBeGreaterThan(5)
      const text = rec.calls
        .map((c) =>
          c.args
            .map((a) =>
              a instanceof Error
                ? `${a.name} ${a.message} ${a.stack} ${JSON.stringify(a)} ${String(a.cause)}`
                : JSON.stringify(a),
            )
            .join(" "),
        )
        .join("\n")
      for (const secretValue of seen) {
        if (secretValue.length < 8) continue
        expect(text).not.toContain(secretValue)
      }
      expect(text).not.toContain("wonderland")
    },
  )

  it("uses per-level overrides and the console for the rest; debug only when enabled", async () => {
    const error = vi.fn()
    const consoleWarn = vi.spyOn(console, "warn").mockImplementation(() => {})
    const consoleDebug = vi.spyOn(console, "debug").mockImplementation(() => {})
    await Auth(req("/auth/nope"), { ...makeConfig(), logger: { error } })
    expect(error).toHaveBeenCalledTimes(1)
    await Auth(req("/auth/session", { headers: { cookie: "authjs.session-token=bad" } }), {
      ...makeConfig(),
      logger: { error },
    })
    expect(consoleWarn).toHaveBeenCalledWith(
      expect.stringMatching(
        /^\[latchkey\]\[warn\]\[session-unreadable\] A session cookie could not be used/,
      ),
    )
    expect(consoleDebug).not.toHaveBeenCalled()
    const debug = vi.fn()
    await signInWithCredentials(Auth, { ...makeConfig(), logger: { debug } })
    expect(debug.mock.calls.map((c) => c[0])).toEqual(
      expect.arrayContaining(["request", "signed in"]),
    )
  })
})

describe("events", () => {
  it("a throwing event handler is logged as EventError and sign-in continues", async () => {
    const rec = recordingLogger()
    const config = makeConfig({
      logger: rec.logger,
      events: {
        signIn: () => {
          throw new Error("analytics down")
        },
      },
    })
    const { res, jar } = await signInWithCredentials(Auth, config)
    expect(res.status).toBe(303)
    expect(res.headers.get("location")).toBe("http://app.example.com")
    expect(jar.get("authjs.session-token")).toBeDefined()
    expect(rec.calls.some((c) => c.level === "error" && c.args[0] instanceof EventError)).toBe(true)
  })

  it("events are awaited before the response", async () => {
    const order: string[] = []
    const config = makeConfig({
      events: {
        signIn: async () => {
          await new Promise((r) => setTimeout(r, 10))
          order.push("event")
        },
        session: async ({ session }) => void order.push(`session:${session.user?.name}`),
      },
    })
    const { jar } = await signInWithCredentials(Auth, config)
    order.push("response")
    await Auth(req("/auth/session", { jar }), config)
    expect(order).toEqual(["event", "response", "session:Alice"])
  })
})
