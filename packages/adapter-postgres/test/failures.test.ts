import { once } from "node:events"
import { createServer, type Server, type Socket } from "node:net"
import { inspect } from "node:util"
import type { Adapter } from "@latchkey/core/adapters"
import { AdapterError } from "@latchkey/core/errors"
import { watchStalls } from "@latchkey/store-test"
import pg from "pg"
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest"
import { migrate, PostgresAdapter } from "../src/index.js"
import {
  backends,
  databaseUrl,
  pgliteBackend,
  serverBackend,
  type TestDatabase,
} from "./helpers.js"

const secretToken = "s3cr3t-session-token-that-must-never-be-logged"

/**
 * Awaits `call`, expecting an AdapterError; returns it with the time it took (`ms`), and that
 * time less the longest stall of this process meanwhile (`runMs`), which the upper bounds use:
 * a loaded machine that did not run the test for a second is no slower adapter.
 */
async function failure(
  call: () => unknown,
): Promise<{ error: AdapterError; ms: number; runMs: number }> {
  const stalls = watchStalls()
  const started = performance.now()
  const error = await Promise.resolve()
    .then(call)
    .then(
      () => {
        throw new Error("expected the call to fail")
      },
      (e: unknown) => e,
    )
  const ms = performance.now() - started
  const runMs = ms - stalls.stop()
  expect(error).toBeInstanceOf(AdapterError)
  return { error: error as AdapterError, ms, runMs }
}

/** What a log line could show of an error, cause chain included. */
const loggable = (error: AdapterError) =>
  `${error.message} ${inspect(error, { depth: 20, showHidden: true })} ${JSON.stringify(error.details)}`

describe("a server that accepts connections and never answers", () => {
  let server: Server
  const sockets = new Set<Socket>()
  let pool: pg.Pool
  let adapter: Adapter

  beforeAll(async () => {
    server = createServer((socket) => {
      sockets.add(socket) // accept, read, never write
      socket.on("close", () => sockets.delete(socket))
    })
    server.listen(0, "127.0.0.1")
    await once(server, "listening")
    const { port } = server.address() as { port: number }
    pool = new pg.Pool({ host: "127.0.0.1", port, user: "postgres", database: "test" })
    pool.on("error", () => {})
    adapter = PostgresAdapter(pool, { queryTimeoutMs: 250 })
  })

  afterAll(async () => {
    for (const socket of sockets) socket.destroy()
    await Promise.race([pool.end().catch(() => {}), new Promise((r) => setTimeout(r, 1000))])
    server.close()
  })

  it("getSessionAndUser fails with AdapterError within the timeout", async () => {
    const { error, ms, runMs } = await failure(() => adapter.getSessionAndUser!(secretToken))
    expect(ms).toBeGreaterThanOrEqual(200)
    expect(runMs).toBeLessThan(1500)
    expect(error.message).toBe("PostgresAdapter.getSessionAndUser failed: no answer within 250 ms")
    expect(error.cause).toBeUndefined()
    expect(error.details).toMatchObject({ method: "getSessionAndUser", code: "QUERY_TIMEOUT" })
    expect(loggable(error)).not.toContain(secretToken)
  })

  it("every kind of call is bounded, in parallel too", async () => {
    const calls = [
      () => adapter.createUser!({ id: "", email: "a@example.com", emailVerified: null }),
      () => adapter.getUserByEmail!("a@example.com"),
      () => adapter.useVerificationToken!({ identifier: "a@example.com", token: secretToken }),
      () => adapter.updateSession!({ sessionToken: secretToken, expires: new Date() }),
      () => adapter.deleteSession!(secretToken),
    ]
    const results = await Promise.all(calls.map((call) => failure(call)))
    for (const { error, runMs } of results) {
      expect(runMs).toBeLessThan(1500)
      expect(error.message).toMatch(/^PostgresAdapter\.\w+ failed: no answer within 250 ms$/)
      expect(loggable(error)).not.toContain(secretToken)
    }
  })

  it("migrate is bounded by its own timeout", async () => {
    const { error, runMs } = await failure(() => migrate(pool, { timeoutMs: 300 }))
    expect(runMs).toBeLessThan(1500)
    expect(error.message).toBe("PostgresAdapter.migrate failed: no answer within 300 ms")
  })
})

describe("nothing listening (connection refused)", () => {
  it("fails fast with AdapterError carrying the connection error code", async () => {
    const probe = createServer()
    probe.listen(0, "127.0.0.1")
    await once(probe, "listening")
    const { port } = probe.address() as { port: number }
    await new Promise((r) => probe.close(r)) // the port is now free: connections are refused
    const pool = new pg.Pool({ host: "127.0.0.1", port, user: "postgres" })
    const { error, runMs } = await failure(() => PostgresAdapter(pool).getUser!("1"))
    expect(runMs).toBeLessThan(1000)
    expect(error.message).toBe("PostgresAdapter.getUser failed: database error ECONNREFUSED")
    expect(error.details).toMatchObject({ code: "ECONNREFUSED" })
    await pool.end()
  })
})

describe("PGlite closed under the adapter", () => {
  it("fails with AdapterError", async () => {
    const db = await pgliteBackend.create()
    await migrate(db.client)
    const adapter = PostgresAdapter(db.client)
    await db.close()
    const { error } = await failure(() => adapter.getSessionAndUser!(secretToken))
    expect(error.message).toBe("PostgresAdapter.getSessionAndUser failed: database error")
    expect(loggable(error)).not.toContain(secretToken)
  })
})

for (const backend of backends) {
  describe(`database errors on ${backend.name}`, () => {
    let db: TestDatabase
    beforeAll(async () => {
      db = await backend.create()
      await migrate(db.client)
    })
    afterAll(async () => await db.close())

    it("a constraint violation is an AdapterError with the SQLSTATE, without the values", async () => {
      const adapter = PostgresAdapter(db.client)
      const token = { identifier: "dup@example.com", token: secretToken, expires: new Date() }
      await adapter.createVerificationToken!(token)
      const { error } = await failure(() => adapter.createVerificationToken!(token))
      expect(error.message).toBe(
        "PostgresAdapter.createVerificationToken failed: database error 23505",
      )
      expect(error.details).toEqual({
        adapter: "postgres",
        method: "createVerificationToken",
        code: "23505",
      })
      // No cause: the driver's error holds the parameters and quotes values.
      expect(error.cause).toBeUndefined()
      expect(loggable(error)).not.toContain(secretToken)
      expect(loggable(error)).not.toContain("dup@example.com")
    })

    it("a value the database rejects does not leak into the message", async () => {
      const adapter = PostgresAdapter(db.client)
      // A NUL byte cannot be stored in PostgreSQL text; the driver's message may quote input.
      const { error } = await failure(() =>
        adapter.useVerificationToken!({ identifier: `x\u0000${secretToken}`, token: secretToken }),
      )
      expect(error.message).toMatch(/^PostgresAdapter\.useVerificationToken failed: database error/)
      expect(loggable(error)).not.toContain(secretToken)
    })

    it("refusals of the adapter itself are AdapterErrors too", async () => {
      const adapter = PostgresAdapter(db.client)
      const { error } = await failure(() =>
        adapter.createSession!({
          sessionToken: secretToken,
          userId: "not-an-id",
          expires: new Date(),
        }),
      )
      expect(error.message).toBe(
        "PostgresAdapter.createSession failed: userId is not an id of this database",
      )
      expect(loggable(error)).not.toContain(secretToken)
    })
  })
}

describe.runIf(databaseUrl)("the PostgreSQL server going away", () => {
  let db: TestDatabase
  let admin: pg.Client
  beforeAll(async () => {
    db = await serverBackend.create()
    await migrate(db.client)
    admin = new pg.Client({ connectionString: databaseUrl })
    await admin.connect()
  })
  afterAll(async () => {
    await admin.end()
    await db.close()
  })
  afterEach(async () => {
    await admin.query("ROLLBACK").catch(() => {})
  })

  const schemaOf = async () => String((await db.sql("SELECT current_schema() AS s"))[0]?.s)

  /** Blocks every statement on `sessions` until the returned release() is called. */
  async function lockSessions() {
    await admin.query("BEGIN")
    await admin.query(`LOCK TABLE ${await schemaOf()}.sessions IN ACCESS EXCLUSIVE MODE`)
    return async () => await admin.query("ROLLBACK")
  }

  /**
   * The backends waiting on the lock, once the adapter's query has reached it. Polled against a
   * deadline, not a count: fifty polls were a second idle, and on a loaded machine the pool's
   * connection and the query can take longer than that to arrive at the lock.
   */
  async function waitingPids(): Promise<number[]> {
    const deadline = performance.now() + 20_000
    while (performance.now() < deadline) {
      // The admin connection is inside a transaction, where statistics views are a snapshot.
      await admin.query("SELECT pg_stat_clear_snapshot()")
      const { rows } = await admin.query(
        `SELECT pid FROM pg_stat_activity
         WHERE wait_event_type = 'Lock' AND pid <> pg_backend_pid() AND query LIKE '%sessions%'`,
      )
      if (rows.length > 0) return rows.map((r) => r.pid as number)
      await new Promise((r) => setTimeout(r, 20))
    }
    return []
  }

  it("a backend terminated mid-query gives AdapterError at once, then the pool recovers", async () => {
    // A timeout far past the time it may take the query to reach the lock (waitingPids' 20 s).
    const adapter = PostgresAdapter(db.client, { queryTimeoutMs: 30_000 })
    const release = await lockSessions()
    const pending = failure(() => adapter.getSessionAndUser!(secretToken))
    pending.catch(() => {}) // awaited below; keeps an early assertion failure from dangling
    const pids = await waitingPids()
    expect(pids.length).toBeGreaterThan(0)
    const stalls = watchStalls()
    const terminated = performance.now()
    for (const pid of pids) await admin.query("SELECT pg_terminate_backend($1)", [pid])
    const { error } = await pending
    // Seconds after the termination, not the timeout: the broken connection is reported, not
    // waited on. Measured from the termination, less the time this process was not run at all.
    expect(performance.now() - terminated - stalls.stop()).toBeLessThan(3000)
    expect(error.message).toMatch(/^PostgresAdapter\.getSessionAndUser failed: database error/)
    expect(loggable(error)).not.toContain(secretToken)
    await release()
    expect(await adapter.getSessionAndUser!(secretToken)).toBeNull()
  })

  it("a stalled query (lock wait) is cut at queryTimeoutMs, then the pool recovers", async () => {
    const adapter = PostgresAdapter(db.client, { queryTimeoutMs: 300 })
    const release = await lockSessions()
    const { error, runMs } = await failure(() => adapter.getSessionAndUser!(secretToken))
    expect(runMs).toBeLessThan(1500)
    expect(error.message).toBe("PostgresAdapter.getSessionAndUser failed: no answer within 300 ms")
    await release()
    expect(await adapter.getSessionAndUser!(secretToken)).toBeNull()
  })

  it("a pool that was ended gives AdapterError", async () => {
    const pool = db.another() as pg.Pool
    const adapter = PostgresAdapter(pool)
    await pool.end()
    const { error, runMs } = await failure(() => adapter.getUserByEmail!("a@example.com"))
    expect(runMs).toBeLessThan(1000)
    expect(error.message).toMatch(/^PostgresAdapter\.getUserByEmail failed: database error/)
  })
})
