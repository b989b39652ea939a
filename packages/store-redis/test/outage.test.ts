/**
 * A Redis that dies mid-test: every command ends in a typed error within its timeout (no
 * hang), and the sign-in limits built on it fail closed.
 */
import { Auth, type AuthConfig } from "@latchkey/core"
import { StoreError, StoreTimeout } from "@latchkey/core/errors"
import Credentials from "@latchkey/core/providers/credentials"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { RedisStore } from "../src/index.js"
import {
  connect,
  hasRedisServer,
  type RedisServer,
  startRedisServer,
  uniquePrefix,
} from "./helpers.js"

const ORIGIN = "http://app.example.com"
const SECRET = "a-test-secret-that-is-at-least-32-bytes-long!!"

async function credentialsAttempt(
  config: AuthConfig,
): Promise<{ params: URLSearchParams; cookie: string }> {
  const csrf = await Auth(new Request(`${ORIGIN}/auth/csrf`), config)
  const { csrfToken } = (await csrf.json()) as { csrfToken: string }
  const cookie = csrf.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .join("; ")
  const res = await Auth(
    new Request(`${ORIGIN}/auth/callback/credentials`, {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        cookie,
        origin: ORIGIN,
        "x-forwarded-for": "192.0.2.1",
      },
      body: new URLSearchParams({ username: "alice", password: "right", csrfToken }).toString(),
    }),
    config,
  )
  const session = res.headers
    .getSetCookie()
    .map((c) => c.split(";")[0])
    .filter((c) => c!.startsWith("authjs.session-token="))
    .join("; ")
  return { params: new URL(res.headers.get("location")!).searchParams, cookie: session }
}

describe.skipIf(!hasRedisServer)("Redis killed mid-test", () => {
  let server: RedisServer
  let client: Awaited<ReturnType<typeof connect>>
  let store: RedisStore
  const errors: unknown[] = []
  let sessionCookie = ""
  const config = (session: AuthConfig["session"] = { revocation: "strict" }): AuthConfig => ({
    secret: SECRET,
    trustHost: true,
    store,
    session,
    logger: { error: (e: unknown) => void errors.push(e), warn: () => {}, debug: () => {} },
    providers: [Credentials({ authorize: () => ({ id: "alice" }) })],
  })
  const readSession = async (session?: AuthConfig["session"]) => {
    const res = await Auth(
      new Request(`${ORIGIN}/auth/session`, { headers: { cookie: sessionCookie } }),
      config(session),
    )
    return { body: await res.json(), setCookie: res.headers.getSetCookie() }
  }

  beforeAll(async () => {
    server = await startRedisServer()
    client = await connect(server.url)
    store = new RedisStore({ client, prefix: uniquePrefix("outage"), commandTimeoutMs: 200 })
  })
  afterAll(async () => {
    await client?.destroy()
    await server?.kill()
  })

  it("works while the server is up: sign-in succeeds, counted in Redis", async () => {
    const { params, cookie } = await credentialsAttempt(config())
    expect(params.get("error")).toBeNull()
    sessionCookie = cookie
    expect((await readSession()).body).not.toBeNull()
  })

  it("after SIGKILL every command is a StoreError within the timeout, never a hang", async () => {
    await server.kill()
    const commands: (() => Promise<unknown>)[] = [
      () => store.hit("k", 60_000, 5),
      () => store.consumeOnce("k", 60_000),
      () => store.get("k"),
      () => store.set("k", "v", 60_000),
      () => store.delete("k"),
    ]
    for (const run of commands) {
      const started = performance.now()
      const error = (await Promise.resolve()
        .then(run)
        .catch((e: unknown) => e)) as StoreError
      expect(error).toBeInstanceOf(StoreError)
      expect(["StoreError", "StoreTimeout"]).toContain(error.type)
      // 200 ms timeout; generous slack for a loaded machine, far below "hang".
      expect(performance.now() - started).toBeLessThan(2_000)
    }
  })

  it("a silent server (SIGSTOP) is a StoreTimeout", async () => {
    const frozen = await startRedisServer()
    const frozenClient = await connect(frozen.url)
    try {
      const slow = new RedisStore({ client: frozenClient, commandTimeoutMs: 150 })
      frozen.process.kill("SIGSTOP")
      const error = await slow.get("k").catch((e) => e)
      expect(error).toBeInstanceOf(StoreTimeout)
      expect(error.type).toBe("StoreTimeout")
      expect(error.message).not.toContain('k"')
    } finally {
      frozen.process.kill("SIGCONT")
      await frozenClient.destroy()
      await frozen.kill()
    }
  })

  it("credentials sign-in fails closed: RateLimited, with the StoreError logged", async () => {
    errors.length = 0
    const { params } = await credentialsAttempt(config())
    expect(params.get("error")).toBe("RateLimited")
    expect(errors.some((e) => e instanceof StoreError)).toBe(true)
  })

  it("strict session reads fail closed (no session, cookie kept) unless revocationFailure is open", async () => {
    errors.length = 0
    const closed = await readSession()
    expect(closed.body).toBeNull()
    expect(closed.setCookie).toEqual([])
    expect(errors.some((e) => e instanceof StoreError)).toBe(true)
    const open = await readSession({ revocation: "strict", revocationFailure: "open" })
    expect(open.body).toMatchObject({ user: {} })
  })

  it("works again once Redis is back on the same port", async () => {
    server = await startRedisServer(server.port)
    const deadline = Date.now() + 10_000
    let { params } = await credentialsAttempt(config())
    while (params.get("error") && Date.now() < deadline) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      ;({ params } = await credentialsAttempt(config()))
    }
    expect(params.get("error")).toBeNull()
    expect((await readSession()).body).not.toBeNull()
  })
})
