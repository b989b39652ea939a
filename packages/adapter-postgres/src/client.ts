/**
 * The one thing the adapter needs from a database driver: `query(text, params) → { rows }`.
 * A `pg` `Pool` (or `Client`) and an `@electric-sql/pglite` `PGlite` instance both have it, so
 * both go through the same SQL. This module adds the bounded wait and the transaction that
 * `migrate` needs, which differ between the two.
 */

/** Anything with `query(text, params) → Promise<{ rows }>`: a `pg` Pool or Client, or PGlite. */
export interface Queryable {
  query(text: string, params?: unknown[]): PromiseLike<{ rows: unknown[] }>
}

/** A database row as the drivers return it. */
export type Row = Record<string, unknown>

/** Thrown (as the `cause` of an `AdapterError`) when the database did not answer in time. */
export class QueryTimeoutError extends Error {
  override name = "QueryTimeoutError"
  readonly code = "QUERY_TIMEOUT"
  constructor(readonly timeoutMs: number) {
    super(`no answer from the database within ${timeoutMs} ms`)
  }
}

// `pg` clients (Pool, Client, PoolClient) accept a query config object, which lets us pass
// `query_timeout`; PGlite does not. pg's clients have `connect()`, PGlite has `exec()` instead.
function isPgShaped(client: Queryable): boolean {
  const c = client as { connect?: unknown; exec?: unknown }
  return typeof c.connect === "function" && typeof c.exec !== "function"
}

/**
 * Whether `client` is an embedded, in-process database: PGlite (or a wrapper that forwards its
 * `exec` and `transaction`). Its statements run in this process, so a slow answer means a busy
 * machine, never an unreachable server; and giving up would not stop the statement, which would
 * still commit after the caller was told it failed. No timeout applies to it.
 */
export function isEmbedded(client: Queryable): boolean {
  const c = client as { connect?: unknown; exec?: unknown; transaction?: unknown }
  return (
    typeof c.exec === "function" &&
    typeof c.transaction === "function" &&
    typeof c.connect !== "function"
  )
}

/** Rejects with {@link QueryTimeoutError} if `promise` does not settle within `timeoutMs`. */
export async function withTimeout<T>(promise: PromiseLike<T>, timeoutMs: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new QueryTimeoutError(timeoutMs)), timeoutMs)
  })
  try {
    return await Promise.race([promise, timeout])
  } finally {
    clearTimeout(timer)
  }
}

/**
 * Runs one parameterised statement and returns its rows, or rejects within `timeoutMs` (not on
 * an embedded database, see {@link isEmbedded}).
 *
 * The timer bounds the caller's wait whatever the driver does (a connection attempt to a dead
 * host, a lock wait…). For `pg`, `query_timeout` is passed too: pg then fails the query itself,
 * and a Pool discards a connection released with an error, so a stuck connection does not stay
 * in the pool after we stopped waiting for it. `name` (pg only) makes it a prepared statement,
 * parsed once per connection (see `statement-names.ts`).
 */
export async function query(
  client: Queryable,
  text: string,
  params: unknown[],
  timeoutMs: number,
  name?: string,
): Promise<Row[]> {
  const pending = isPgShaped(client)
    ? (client as unknown as PgLike).query(
        name === undefined
          ? { text, values: params, query_timeout: timeoutMs }
          : { name, text, values: params, query_timeout: timeoutMs },
      )
    : client.query(text, params)
  const { rows } = isEmbedded(client) ? await pending : await withTimeout(pending, timeoutMs)
  return rows as Row[]
}

interface PgLike {
  query(config: {
    name?: string
    text: string
    values?: unknown[]
    query_timeout?: number
  }): PromiseLike<{
    rows: unknown[]
  }>
}

/** A connection that can run a multi-statement script (a migration file). */
export interface ScriptRunner extends Queryable {
  exec?(sql: string): PromiseLike<unknown>
}

/** Runs a multi-statement SQL script: PGlite's `exec`, or pg's simple query protocol. */
export async function runScript(connection: ScriptRunner, sql: string): Promise<void> {
  // pg sends a query without parameters over the simple protocol, which allows several
  // statements; PGlite's `query` uses the extended protocol (one statement), hence `exec`.
  if (typeof connection.exec === "function") await connection.exec(sql)
  else await connection.query(sql)
}

interface PGliteLike {
  transaction<T>(fn: (tx: ScriptRunner) => Promise<T>): Promise<T>
}
interface PgPoolLike {
  connect(): Promise<ScriptRunner & { release(error?: Error | boolean): void }>
  totalCount: number
}

/**
 * Runs `fn` inside one transaction on one connection.
 *
 * - PGlite: its own `transaction()` (it has a single connection and queues other queries), with
 *   no timeout (see {@link isEmbedded}).
 * - pg `Pool`: a transaction must stay on one checked-out client, never spread over
 *   `pool.query` calls that may each land on a different connection.
 * - Anything else (a pg `Client`, a checked-out `PoolClient`) is one connection already.
 *
 * If `fn` fails or the time runs out, the transaction is rolled back; a pg connection that
 * timed out is destroyed rather than returned to the pool (its state is unknown).
 */
export async function transaction<T>(
  client: Queryable,
  timeoutMs: number,
  fn: (connection: ScriptRunner) => Promise<T>,
): Promise<T> {
  const pglite = client as unknown as Partial<PGliteLike>
  if (typeof pglite.transaction === "function") {
    const pending = pglite.transaction(fn)
    return isEmbedded(client) ? await pending : await withTimeout(pending, timeoutMs)
  }
  const pool = client as unknown as Partial<PgPoolLike>
  if (typeof pool.connect === "function" && typeof pool.totalCount === "number") {
    const connecting = pool.connect()
    const connection = await withTimeout(connecting, timeoutMs).catch((error: unknown) => {
      // If the connection arrives after we gave up, destroy it rather than leak a pool slot.
      connecting.then((late) => late.release(true)).catch(() => {})
      throw error
    })
    let failure: Error | undefined
    try {
      return await withTimeout(inTransaction(connection, fn), timeoutMs)
    } catch (error) {
      failure = error instanceof Error ? error : new Error("transaction failed")
      throw error
    } finally {
      // Releasing with an error makes the pool close the connection (and the server roll back).
      connection.release(failure)
    }
  }
  return await withTimeout(inTransaction(client, fn), timeoutMs)
}

async function inTransaction<T>(
  connection: ScriptRunner,
  fn: (connection: ScriptRunner) => Promise<T>,
): Promise<T> {
  await connection.query("BEGIN")
  try {
    const result = await fn(connection)
    await connection.query("COMMIT")
    return result
  } catch (error) {
    await Promise.resolve(connection.query("ROLLBACK")).catch(() => {})
    throw error
  }
}
