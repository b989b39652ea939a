/**
 * A Redis that dies mid-test (its own `redis-server`, started here on a free port and killed
 * by its PID; never the shared one): every command ends in a typed error without waiting out
 * the timeout when the client knows the server is gone, the sign-in limits built on it fail
 * closed as "temporarily unavailable" (503), and everything works again once Redis is back.
 *
 * Fail-fast is proven by what the error says, not by a stopwatch: with a timeout far longer
 * than the test's, a command that was sent to a dead server could only end as `StoreTimeout`;
 * these end as `StoreError` with `reason: "disconnected"` (never sent).
 */
import { Auth, type AuthConfig } from "@latchkey/core"
import { StoreError, StoreTimeout } from "@latchkey/core/errors"
import Credentials from "@latchkey/core/providers/credentials"
import { createClient } from "@redis/client"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { RedisStore } from "../src/index.js"
import {
  connect,
  freePort,
  hasRedisServer,
  type RedisServer,
  startRedisServer,
  uniquePrefix,
} from "./helpers.js"

const ORIGIN = "http://app.example.com"
const SECRET = "a-test-secret-that-is-at-least-32-bytes-long!!"

async function credentialsAttempt(
  config: AuthConfig,
): Promise<{ params: URLSearchParams; cookie: string; retryAfter: string | null }> {
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
  return {
    params: new URL(res.headers.get("location")!).searchParams,
    cookie: session,
    retryAfter: res.headers.get("retry-after"),
  }
}

/** Every store command, for "each of them behaves so". */
const everyCommand = (store: RedisStore): (() => Promise<unknown>)[] => [
  () => store.hit("k", 60_000, 5),
  () => store.consumeOnce("k", 60_000),
  () => store.get("k"),
  () => store.set("k", "v", 60_000),
  () => store.delete("k"),
]

const failureOf = (run: () => Promise<unknown>) =>
  Promise.resolve()
    .then(run)
    .then(
      () => undefined,
      (e: unknown) => e as StoreError,
    )

/** Waits until the client has noticed the lost connection (its socket closed). */
async function untilDisconnected(client: { isReady: boolean }): Promise<void> {
  while (client.isReady) await new Promise((resolve) => setTimeout(resolve, 10))
}

/** A minute: a command that waited for its timeout would outlast the test (30 s). */
const NEVER_WAITED = 60_000

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
    // Roomy: the sign-in while Redis is up must answer on a machine under twice its cores in
    // load; once Redis is gone the commands fail at once (disconnected), never by this timeout.
    store = new RedisStore({ client, prefix: uniquePrefix("outage"), commandTimeoutMs: 5_000 })
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

  it("refused connection (server SIGKILLed): every command fails at once with StoreError, never sent", async () => {
    await server.kill()
    await untilDisconnected(client)
    const patient = new RedisStore({ client, commandTimeoutMs: NEVER_WAITED })
    for (const run of everyCommand(patient)) {
      const error = await failureOf(run)
      expect(error).toBeInstanceOf(StoreError)
      expect(error!.type).toBe("StoreError")
      expect(error!.details).toMatchObject({ reason: "disconnected" })
      expect(error!.message).toMatch(/^Redis is not connected .* command was not sent$/)
    }
  })

  it("dead port (nothing ever listened): fails at once too, while the client keeps trying", async () => {
    const deadClient = createClient({ url: `redis://127.0.0.1:${await freePort()}` })
    deadClient.on("error", () => {})
    const connecting = deadClient.connect().catch(() => {})
    try {
      const patient = new RedisStore({ client: deadClient, commandTimeoutMs: NEVER_WAITED })
      const error = await failureOf(() => patient.get("k"))
      expect(error).toBeInstanceOf(StoreError)
      expect(error!.details).toMatchObject({ reason: "disconnected" })
    } finally {
      await deadClient.destroy()
      await connecting
    }
  })

  // Roomy limits, as in the Upstash store's outage test: the commands outside the freeze must
  // answer in time on a loaded machine, and the fail-fast checks must all run inside the pause.
  const FROZEN_TIMEOUT_MS = 1_000
  const FROZEN_PAUSE_MS = 3_000
  it("frozen server (SIGSTOP): one StoreTimeout, then fail-fast for the pause, then it tries again and recovers", async () => {
    const frozen = await startRedisServer()
    const frozenClient = await connect(frozen.url)
    try {
      const slow = new RedisStore({
        client: frozenClient,
        commandTimeoutMs: FROZEN_TIMEOUT_MS,
        pauseAfterTimeoutMs: FROZEN_PAUSE_MS,
      })
      frozen.process.kill("SIGSTOP")
      const first = await failureOf(() => slow.get("k"))
      expect(first).toBeInstanceOf(StoreTimeout)
      expect(first!.message).toBe(
        `Redis did not answer the store's get command within ${FROZEN_TIMEOUT_MS} ms`,
      )
      // The connection is still open (the client thinks it is fine), yet nobody else waits.
      expect(frozenClient.isReady).toBe(true)
      for (const run of everyCommand(slow)) {
        const error = await failureOf(run)
        expect(error!.type).toBe("StoreError")
        expect(error!.details).toMatchObject({ reason: "paused-after-timeout" })
      }
      frozen.process.kill("SIGCONT")
      await new Promise((resolve) => setTimeout(resolve, FROZEN_PAUSE_MS + 50))
      await slow.set("k", "back", 60_000)
      expect(await slow.get("k")).toBe("back")
    } finally {
      frozen.process.kill("SIGCONT")
      await frozenClient.destroy()
      await frozen.kill()
    }
  })

  it("credentials sign-in fails closed as 'temporarily unavailable' (StoreError, 503), not RateLimited", async () => {
    errors.length = 0
    const { params, retryAfter } = await credentialsAttempt(config())
    expect(params.get("error")).toBe("StoreError")
    expect(retryAfter).toBe("30")
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

  it("works again once Redis is back on the same port (the client reconnects by itself)", async () => {
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
