/**
 * The Durable Object that holds Latchkey's shared state on Cloudflare: the app's worker exports
 * it (`export { LatchkeyStoreObject } from "@latchkey/store-durable-object"`) and binds it as a
 * Durable Object namespace. One object answers every operation on the keys it is given, one at
 * a time: each operation is one synchronous run of SQL statements on the object's own SQLite
 * storage, so nothing else runs on the object between its read and its write. That is the
 * atomicity the store contract asks for (two hits never both see the last free slot, two
 * consumeOnce never both win), and a Durable Object's storage is strongly consistent, unlike KV.
 *
 * Needs the SQLite storage backend (`new_sqlite_classes` in the migration that adds the class).
 * Every row carries its expiry: a read never sees an expired row, and an alarm deletes them.
 *
 * No `cloudflare:workers` import: the object speaks a small JSON protocol over `fetch`, which
 * works on every compatibility date and keeps this module importable outside workerd.
 */
import { type Operation, type OperationResult, operationNames } from "./protocol.js"

/** The parts of `DurableObjectState` used here (structural, so no Cloudflare types needed). */
export interface DurableObjectStateLike {
  storage: {
    sql: {
      exec(query: string, ...bindings: unknown[]): { toArray(): Record<string, unknown>[] }
    }
    setAlarm(scheduledTime: number): Promise<void>
  }
}

/** How long after a write the object sweeps expired rows (then again while any remain). */
const SWEEP_AFTER_MS = 60 * 60 * 1000

export class LatchkeyStoreObject {
  readonly #sql: DurableObjectStateLike["storage"]["sql"]
  readonly #state: DurableObjectStateLike
  #sweepArmed = false

  constructor(state: DurableObjectStateLike, _env?: unknown) {
    this.#state = state
    this.#sql = state.storage.sql
    this.#sql.exec(
      `CREATE TABLE IF NOT EXISTS entries (key TEXT PRIMARY KEY, value TEXT,
        count INTEGER NOT NULL DEFAULT 0, expires_at INTEGER NOT NULL)`,
    )
    this.#sql.exec(
      `CREATE TABLE IF NOT EXISTS fields (key TEXT NOT NULL, field TEXT NOT NULL, value TEXT NOT NULL,
        expires_at INTEGER NOT NULL, rank REAL NOT NULL, PRIMARY KEY (key, field))`,
    )
  }

  /** One operation per request: `POST` a JSON {@link Operation}, get `{ result }` back. */
  async fetch(request: Request): Promise<Response> {
    let op: Operation
    try {
      op = (await request.json()) as Operation
      if (!operationNames.has(op?.op)) throw new Error("unknown operation")
    } catch {
      return Response.json({ error: "not a store operation" }, { status: 400 })
    }
    const result = this.run(op)
    if (op.op !== "get" && op.op !== "getMany" && op.op !== "mapGet" && op.op !== "mapGetAll")
      this.#armSweep()
    return Response.json({ result })
  }

  /** Carries out one operation, synchronously (atomic on this object). */
  run(op: Operation): OperationResult {
    const now = Date.now()
    switch (op.op) {
      case "hit": {
        const [key, windowMs, limit] = op.args
        const row = this.#live(key, now)
        let count: number
        let expiresAt: number
        if (row) {
          count = Number(row.count) + 1
          expiresAt = Number(row.expires_at)
          this.#sql.exec("UPDATE entries SET count = ? WHERE key = ?", count, key)
        } else {
          count = 1
          expiresAt = now + windowMs
          this.#put(key, null, count, expiresAt)
        }
        if (count <= limit) return { allowed: true, retryAfterSeconds: 0 }
        return {
          allowed: false,
          retryAfterSeconds: Math.max(1, Math.ceil((expiresAt - now) / 1000)),
        }
      }
      case "consumeOnce": {
        const [key, ttlMs] = op.args
        if (this.#live(key, now)) return false
        this.#put(key, null, 0, now + ttlMs)
        return true
      }
      case "get":
        return this.#value(op.args[0], now)
      case "getMany":
        return op.args[0].map((key) => this.#value(key, now))
      case "set": {
        const [key, value, ttlMs] = op.args
        this.#put(key, value, 0, now + ttlMs)
        return null
      }
      case "delete": {
        const [key] = op.args
        this.#sql.exec("DELETE FROM entries WHERE key = ?", key)
        this.#sql.exec("DELETE FROM fields WHERE key = ?", key)
        return null
      }
      case "mapSet": {
        const [key, field, value, ttlMs, bound] = op.args
        this.#sql.exec(
          `INSERT INTO fields (key, field, value, expires_at, rank) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (key, field) DO UPDATE SET value = excluded.value,
             expires_at = excluded.expires_at, rank = excluded.rank`,
          key,
          field,
          value,
          now + ttlMs,
          bound?.rank ?? 0,
        )
        if (bound) {
          this.#sql.exec("DELETE FROM fields WHERE key = ? AND expires_at <= ?", key, now)
          const [{ n = 0 } = {}] = this.#sql
            .exec("SELECT COUNT(*) AS n FROM fields WHERE key = ?", key)
            .toArray()
          const excess = Number(n) - Math.max(0, bound.maxFields)
          if (excess > 0)
            this.#sql.exec(
              `DELETE FROM fields WHERE key = ? AND field IN (SELECT field FROM fields
                 WHERE key = ? ORDER BY rank ASC, expires_at ASC LIMIT ?)`,
              key,
              key,
              excess,
            )
        }
        return null
      }
      case "mapGet": {
        const [key, field] = op.args
        const [row] = this.#sql
          .exec(
            "SELECT value FROM fields WHERE key = ? AND field = ? AND expires_at > ?",
            key,
            field,
            now,
          )
          .toArray()
        return row ? String(row.value) : null
      }
      case "mapGetAll": {
        const rows = this.#sql
          .exec("SELECT field, value FROM fields WHERE key = ? AND expires_at > ?", op.args[0], now)
          .toArray()
        return Object.fromEntries(rows.map((r) => [String(r.field), String(r.value)]))
      }
      case "mapDelete": {
        const [key, fields] = op.args
        for (const field of fields)
          this.#sql.exec("DELETE FROM fields WHERE key = ? AND field = ?", key, field)
        return null
      }
    }
  }

  /** Deletes expired rows; sweeps again later while any row is left. */
  async alarm(): Promise<void> {
    const now = Date.now()
    this.#sql.exec("DELETE FROM entries WHERE expires_at <= ?", now)
    this.#sql.exec("DELETE FROM fields WHERE expires_at <= ?", now)
    const [{ n = 0 } = {}] = this.#sql
      .exec("SELECT (SELECT COUNT(*) FROM entries) + (SELECT COUNT(*) FROM fields) AS n")
      .toArray()
    this.#sweepArmed = false
    if (Number(n) > 0) this.#armSweep()
  }

  #armSweep(): void {
    if (this.#sweepArmed) return
    this.#sweepArmed = true
    this.#state.storage.setAlarm(Date.now() + SWEEP_AFTER_MS).catch(() => {
      this.#sweepArmed = false
    })
  }

  #live(key: string, now: number): Record<string, unknown> | undefined {
    const [row] = this.#sql
      .exec(
        "SELECT value, count, expires_at FROM entries WHERE key = ? AND expires_at > ?",
        key,
        now,
      )
      .toArray()
    return row
  }

  #value(key: string, now: number): string | null {
    const row = this.#live(key, now)
    return row && row.value !== null && row.value !== undefined ? String(row.value) : null
  }

  #put(key: string, value: string | null, count: number, expiresAt: number): void {
    this.#sql.exec(
      `INSERT INTO entries (key, value, count, expires_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (key) DO UPDATE SET value = excluded.value, count = excluded.count,
         expires_at = excluded.expires_at`,
      key,
      value,
      count,
      expiresAt,
    )
  }
}
