/**
 * An embedded PGlite is never cut off by `queryTimeoutMs`: its statements run in this process,
 * so a slow first answer (a busy machine, PGlite's start-up) is not an unreachable server. The
 * demo used to exit at start when its first query took over 5 s on a loaded CI machine.
 */
import { PGlite, type Transaction } from "@electric-sql/pglite"
import { AdapterError } from "@latchkey/core/errors"
import { afterAll, beforeAll, describe, expect, it } from "vitest"
import { migrate, PostgresAdapter, type Queryable } from "../src/index.js"

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** PGlite whose next `slowCalls` queries, transactions and scripts each answer `delayMs` late. */
function slowPGlite(db: PGlite, delayMs: number) {
  let slowCalls = 0
  const late = async <T>(work: () => Promise<T>): Promise<T> => {
    if (slowCalls > 0) {
      slowCalls--
      await sleep(delayMs)
    }
    return await work()
  }
  const client = {
    query: (text: string, params?: unknown[]) => late(() => db.query(text, params)),
    exec: (sql: string) => late(() => db.exec(sql)),
    transaction: <T>(fn: (tx: Transaction) => Promise<T>) => late(() => db.transaction(fn)),
  }
  return { client: client as Queryable, slowNext: (n: number) => (slowCalls = n) }
}

describe("an embedded PGlite that answers slowly", () => {
  let db: PGlite

  beforeAll(async () => {
    db = new PGlite()
    await migrate(db)
  })
  afterAll(async () => {
    await db.close()
  })

  it("a first query slower than queryTimeoutMs is waited for, not failed", async () => {
    const slow = slowPGlite(db, 400)
    const adapter = PostgresAdapter(slow.client, { queryTimeoutMs: 100 })
    slow.slowNext(1)
    expect(await adapter.getUserByEmail!("nobody@example.com")).toBeNull()
    const user = await adapter.createUser!({
      id: "",
      email: "slow@example.com",
      emailVerified: null,
    })
    expect(user.email).toBe("slow@example.com")
  })

  it("a slow transaction (recovery codes) is waited for", async () => {
    const slow = slowPGlite(db, 400)
    const adapter = PostgresAdapter(slow.client, { queryTimeoutMs: 100 })
    const user = await adapter.createUser!({
      id: "",
      email: "codes@example.com",
      emailVerified: null,
    })
    slow.slowNext(1)
    await adapter.replaceRecoveryCodes!(user.id, ["a", "b"])
    expect(await adapter.countRecoveryCodes!(user.id)).toBe(2)
  })

  it("a slow migration is waited for", async () => {
    const fresh = new PGlite()
    const slow = slowPGlite(fresh, 400)
    slow.slowNext(1)
    const result = await migrate(slow.client, { timeoutMs: 100 })
    expect(result.applied.length).toBeGreaterThan(0)
    await fresh.close()
  })

  it("a client that is not embedded (only `query`) is still cut off at queryTimeoutMs", async () => {
    const remote: Queryable = { query: () => new Promise(() => {}) }
    const adapter = PostgresAdapter(remote, { queryTimeoutMs: 100 })
    const error = await Promise.resolve()
      .then(() => adapter.getUserByEmail!("a@example.com"))
      .catch((e: unknown) => e)
    expect(error).toBeInstanceOf(AdapterError)
    expect((error as Error).message).toBe(
      "PostgresAdapter.getUserByEmail failed: no answer within 100 ms",
    )
  })
})
