/**
 * A group of adapter methods over its own tables: users, accounts, sessions, passkeys, two-factor,
 * … Each module of this folder is one group; the adapter offers a group's methods when the
 * schema has its tables, and a new feature's methods are one more group.
 */
import type { Adapter } from "@latchkey/core/adapters"
import type { AdapterError } from "@latchkey/core/errors"
import type { Column, Table } from "drizzle-orm"
import type { Dialect } from "../dialect/dialect.js"
import type { LatchkeyTables } from "../tables.js"

/** A table with rows of one user, removed when the user is (whether or not keys cascade). */
export interface UserRows {
  table: Table
  userId: Column
}

export interface MethodContext {
  readonly dialect: Dialect
  readonly t: LatchkeyTables
  /** Every group's per-user rows, for `deleteUser`. */
  readonly userRows: readonly UserRows[]
  /** `fn` with every failure turned into an `AdapterError` naming `method`. */
  guarded<A extends unknown[], R>(
    method: string,
    fn: (...args: A) => Promise<R>,
  ): (...args: A) => Promise<R>
  /** An `AdapterError` for a refusal of the adapter's own. */
  refuse(method: string, reason: string): AdapterError
  /** What the session table holds for a session token (its SHA-256, unless turned off). */
  storedToken(sessionToken: string): Promise<string>
}

export interface MethodGroup {
  /** Whether the schema has the tables (and columns) the group's methods need. */
  available(t: LatchkeyTables): boolean
  /** The group's tables keyed by user id, for `deleteUser`. */
  userRows?(t: LatchkeyTables): UserRows[]
  methods(ctx: MethodContext): Partial<Adapter>
}
