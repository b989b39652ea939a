import { type Adapter, withAdapterFeature } from "@latchkey/core/adapters"
import { adapterRefusal, storedSessionToken, toAdapterError } from "@latchkey/core/adapters/sql"
import { dialectOf } from "./dialect/detect.js"
import { accounts } from "./methods/accounts.js"
import { authenticators } from "./methods/authenticators.js"
import type { MethodContext, MethodGroup } from "./methods/group.js"
import { organizations } from "./methods/organizations.js"
import { passwords } from "./methods/passwords.js"
import { revocation } from "./methods/revocation.js"
import { sessions } from "./methods/sessions.js"
import { twoFactor } from "./methods/two-factor.js"
import { users } from "./methods/users.js"
import { verificationTokens } from "./methods/verification-tokens.js"
import { findTables } from "./tables.js"

/** Every method group, in the order their methods are offered. */
const groups: readonly MethodGroup[] = [
  users,
  accounts,
  sessions,
  verificationTokens,
  authenticators,
  revocation,
  twoFactor,
  passwords,
  organizations,
]

const label = { name: "DrizzleAdapter", id: "drizzle" }

export interface DrizzleAdapterOptions {
  /**
   * The app's schema module (`import * as schema from "./db/schema"`), which holds Latchkey's
   * tables; default: the `schema` the database was made with (`drizzle(client, { schema })`).
   * Tables are found by their SQL names; the optional ones (passkeys, revocation, two-factor,
   * passwords) and the account API's columns decide which methods the adapter offers.
   */
  schema?: Record<string, unknown>
  /**
   * Store the SHA-256 (hex) of each session token instead of the token, so a database leak
   * yields no usable session cookie. Default `true`. Set it to `false` on an Auth.js database
   * whose `session` rows hold plaintext tokens: with `true`, none of them would be found
   * (everyone signed out), and Auth.js, moved back to, would not find Latchkey's.
   */
  hashSessionTokens?: boolean
}

/**
 * A Latchkey {@link Adapter} over Drizzle ORM: PostgreSQL (`pg`, PGlite), MySQL (`mysql2`) and
 * SQLite (D1, libSQL, better-sqlite3, Bun's SQLite), on the tables of
 * `@latchkey/adapter-drizzle/<pg|mysql|sqlite>` (Auth.js's Drizzle tables plus Latchkey's).
 *
 * Every failure rejects with `AdapterError` naming the method and the driver's error code,
 * never a parameter value (and with no `cause`).
 *
 * @example
 * ```ts
 * import { drizzle } from "drizzle-orm/d1"
 * import { DrizzleAdapter } from "@latchkey/adapter-drizzle"
 * import * as schema from "~/db/schema"
 *
 * const adapter = DrizzleAdapter(drizzle(env.DB, { schema }))
 * ```
 */
export function DrizzleAdapter(db: unknown, options: DrizzleAdapterOptions = {}): Adapter {
  const dialect = dialectOf(db)
  if (!dialect) {
    throw new TypeError(
      "DrizzleAdapter: the first argument is not a Drizzle database (drizzle(…) of drizzle-orm/d1, /libsql, /better-sqlite3, /bun-sqlite, /node-postgres, /pglite or /mysql2)",
    )
  }
  const schema =
    options.schema ?? (db as { _?: { fullSchema?: Record<string, unknown> } })._?.fullSchema
  const t = findTables(schema ?? {})
  const hash = options.hashSessionTokens ?? true
  const offered = groups.filter((group) => group.available(t))
  const ctx: MethodContext = {
    dialect,
    t,
    userRows: offered.flatMap((group) => group.userRows?.(t) ?? []),
    guarded:
      (method, fn) =>
      async (...args) => {
        try {
          return await fn(...args)
        } catch (error) {
          throw toAdapterError(label, method, error)
        }
      },
    refuse: (method, reason) => adapterRefusal(label, method, reason),
    storedToken: (token) => storedSessionToken(token, hash),
  }
  // The adapter carries the code that serves it at sign-in (`withAdapterFeature`).
  return withAdapterFeature(Object.assign({}, ...offered.map((group) => group.methods(ctx))))
}
