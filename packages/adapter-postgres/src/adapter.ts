import {
  type AccountTokensUpdate,
  type Adapter,
  type AdapterAccount,
  type AdapterAuthenticator,
  type AdapterSession,
  type AdapterSessionRecord,
  type AdapterTwoFactor,
  type AdapterUser,
  type SessionRecordBound,
  type VerificationToken,
  withAdapterFeature,
} from "@latchkey/core/adapters"
import { othersKept, storedSessionToken } from "@latchkey/core/adapters/sql"
import { type Queryable, query, type Row, transaction } from "./client.js"
import { adapterRefusal, toAdapterError } from "./errors.js"
import { organizationMethods } from "./organizations.js"
import {
  accountParams,
  isUuid,
  sessionExtras,
  toAccount,
  toAuthenticator,
  toDate,
  toDbId,
  toFullSession,
  toSession,
  toUser,
  toVerificationToken,
} from "./records.js"
import { sql } from "./sql.js"
import { statementNames } from "./statement-names.js"

/** A patch field as the `CASE WHEN $n` pair: `undefined` leaves a column, `null` clears it. */
const set = (value: unknown) => [value !== undefined, value ?? null]

export interface PostgresAdapterOptions {
  /**
   * Store the SHA-256 (hex) of each session token instead of the token, so a database leak
   * yields no usable session cookie. Transparent to the core: every session method hashes the
   * token it is given. Default `true`.
   *
   * Set it to `false` when pointing at an existing Auth.js database whose `sessions` rows hold
   * plaintext tokens — with `true`, none of those sessions would be found (everyone would be
   * signed out). Switching later signs out the sessions stored the other way.
   */
  hashSessionTokens?: boolean
  /**
   * Longest time, in ms, a method waits for the database before failing with `AdapterError`.
   * Default 5000. For `pg` it is also passed as `query_timeout`, so a stuck connection is
   * dropped from the pool. Also consider `statement_timeout` and `connectionTimeoutMillis` in
   * the `Pool` configuration, which cancel work on the server and bound connection attempts.
   *
   * It does not apply to an embedded PGlite: there a slow answer means a busy machine (the
   * statement runs in this process), not an unreachable server, and the statement would still
   * run after we stopped waiting.
   */
  queryTimeoutMs?: number
  /**
   * Whether the WebAuthn authenticator methods are offered. They need the `authenticators`
   * table of migration 0002, which `@auth/pg-adapter` databases lack. Default `true`; set
   * `false` for a database that `migrate()` was not run on, so a WebAuthn configuration is
   * refused at start-up rather than failing at sign-in.
   */
  authenticators?: boolean
  /**
   * Whether the two-factor methods are offered (tables of migration 0006). Default `true`;
   * set `false` for a database that `migrate()` was not run on, so a `twoFactor` configuration
   * is refused at start-up (naming the methods) rather than failing at sign-in.
   */
  twoFactor?: boolean
  /**
   * Whether the password methods of the `Password` provider are offered (table of migration
   * 0007). Default `true`; set `false` for a database that `migrate()` was not run on, so a
   * `Password` provider is refused at start-up (naming the methods) rather than failing later.
   */
  password?: boolean
  /**
   * Whether the session revocation methods are offered (tables of migration 0004). Default
   * `true`; set `false` for a database that `migrate()` was not run on: revocation state then
   * lives in the configured `store` (memory by default).
   */
  revocation?: boolean
  /**
   * Whether the account API's methods and columns are used (migration 0005: session public
   * ids, sign-in facts, passkey names). Default `true`; set `false` for a database that
   * `migrate()` was not run on: the account API then answers `null` sections and 501.
   */
  account?: boolean
  /**
   * Whether the organizations methods and the session's active organization are used
   * (migration 0009). Default `true`; set `false` for a database that `migrate()` was not run
   * on, so an `organizations` configuration is refused at start-up (naming the methods).
   */
  organizations?: boolean
}

/**
 * A Latchkey {@link Adapter} on PostgreSQL, schema-compatible with `@auth/pg-adapter`.
 *
 * `client` is anything with `query(text, params) → Promise<{ rows }>`: a `pg` `Pool`
 * (production) or an `@electric-sql/pglite` `PGlite` instance (embedded, no server). Create the
 * tables with {@link migrate} first, or point it at an existing Auth.js database (then set
 * `hashSessionTokens: false`, see {@link PostgresAdapterOptions}).
 *
 * Every failure — database error, lost connection, timeout — rejects with `AdapterError`
 * naming the method and the SQL state, never a parameter value (and with no `cause`).
 *
 * @example
 * ```ts
 * import { Pool } from "pg"
 * import { PostgresAdapter, migrate } from "@latchkey/adapter-postgres"
 *
 * const pool = new Pool({ connectionString: process.env.DATABASE_URL })
 * await migrate(pool)
 * export const adapter = PostgresAdapter(pool)
 * ```
 */
export function PostgresAdapter(client: Queryable, options: PostgresAdapterOptions = {}): Adapter {
  const hash = options.hashSessionTokens ?? true
  const timeoutMs = options.queryTimeoutMs ?? 5000

  const rows = (text: string, params: unknown[]) =>
    query(client, text, params, timeoutMs, statementNames.get(text))
  const first = async (text: string, params: unknown[]): Promise<Row | undefined> =>
    (await rows(text, params))[0]
  const tokenKey = (sessionToken: string) => storedSessionToken(sessionToken, hash)

  // Every method goes through `guarded`, so whatever fails inside surfaces as AdapterError.
  function guarded<A extends unknown[], R>(
    method: string,
    fn: (...args: A) => Promise<R>,
  ): (...args: A) => Promise<R> {
    return async (...args: A) => {
      try {
        return await fn(...args)
      } catch (error) {
        throw toAdapterError(method, error)
      }
    }
  }

  function twoFactorMethods(): Partial<Adapter> {
    return {
      getTwoFactor: guarded("getTwoFactor", async (userId: string) => {
        const dbId = toDbId(userId)
        if (dbId === null) return null
        const row = await first(sql.getTwoFactor, [dbId])
        if (!row) return null
        return {
          userId,
          secret: String(row.secret),
          enabledAt: row.enabledAt == null ? null : toDate(row.enabledAt),
        }
      }),
      setTwoFactor: guarded("setTwoFactor", async (record: AdapterTwoFactor) => {
        const dbId = toDbId(record.userId)
        if (dbId === null) throw adapterRefusal("setTwoFactor", "no such user")
        await rows(sql.setTwoFactor, [dbId, record.secret, record.enabledAt])
      }),
      deleteTwoFactor: guarded("deleteTwoFactor", async (userId: string) => {
        const dbId = toDbId(userId)
        if (dbId !== null) await rows(sql.deleteTwoFactor, [dbId])
      }),
      replaceRecoveryCodes: guarded(
        "replaceRecoveryCodes",
        async (userId: string, codeHashes: readonly string[]) => {
          const dbId = toDbId(userId)
          if (dbId === null) throw adapterRefusal("replaceRecoveryCodes", "no such user")
          // One transaction: the old set never coexists with the new one, nor is lost without it.
          await transaction(client, timeoutMs, async (connection) => {
            await connection.query(sql.deleteRecoveryCodes, [dbId])
            await connection.query(sql.insertRecoveryCodes, [dbId, [...codeHashes]])
          })
        },
      ),
      useRecoveryCode: guarded("useRecoveryCode", async (userId: string, codeHash: string) => {
        const dbId = toDbId(userId)
        if (dbId === null) return false
        return (await rows(sql.useRecoveryCode, [dbId, codeHash])).length > 0
      }),
      countRecoveryCodes: guarded("countRecoveryCodes", async (userId: string) => {
        const dbId = toDbId(userId)
        if (dbId === null) return 0
        return Number((await first(sql.countRecoveryCodes, [dbId]))?.n ?? 0)
      }),
    }
  }

  function passwordMethods(): Partial<Adapter> {
    return {
      getPasswordHash: guarded("getPasswordHash", async (userId: string) => {
        const dbId = toDbId(userId)
        if (dbId === null) return null
        const row = await first(sql.getPasswordHash, [dbId])
        return row ? String(row.hash) : null
      }),
      setPasswordHash: guarded("setPasswordHash", async (userId: string, hash: string) => {
        const dbId = toDbId(userId)
        if (dbId === null) throw adapterRefusal("setPasswordHash", "no such user")
        await rows(sql.setPasswordHash, [dbId, hash])
      }),
      deletePasswordHash: guarded("deletePasswordHash", async (userId: string) => {
        const dbId = toDbId(userId)
        if (dbId === null) return false
        return (await rows(sql.deletePasswordHash, [dbId])).length > 0
      }),
    }
  }

  function revocationMethods(): Partial<Adapter> {
    return {
      revokeSession: guarded("revokeSession", async (sid: string, expires: Date) => {
        await rows(sql.revokeSession, [sid, expires])
      }),
      getSessionRevocation: guarded(
        "getSessionRevocation",
        async ({ sid, userId }: { sid?: string | undefined; userId?: string | undefined }) => {
          const row = await first(sql.getSessionRevocation, [sid ?? null, userId ?? null])
          return { revoked: row?.revoked === true, version: Number(row?.version ?? 0) }
        },
      ),
      bumpUserSessionVersion: guarded("bumpUserSessionVersion", async (userId: string) => {
        const row = await first(sql.bumpUserSessionVersion, [userId])
        return Number(row?.version ?? 0)
      }),
      deleteUserSessions: guarded("deleteUserSessions", async (userId: string) => {
        const dbId = toDbId(userId)
        if (dbId !== null) await rows(sql.deleteUserSessions, [dbId])
      }),
    }
  }

  const adapter: Adapter = {
    createUser: guarded("createUser", async (user: AdapterUser) => {
      // The database assigns the id (SERIAL); the id the core proposes is not used.
      const row = await first(sql.createUser, [
        user.name ?? null,
        user.email,
        user.emailVerified ?? null,
        user.image ?? null,
      ])
      if (!row) throw adapterRefusal("createUser", "no row returned")
      return toUser(row)
    }),

    getUser: guarded("getUser", async (id: string) => {
      const dbId = toDbId(id)
      if (dbId === null) return null
      const row = await first(sql.getUser, [dbId])
      return row ? toUser(row) : null
    }),

    getUserByEmail: guarded("getUserByEmail", async (email: string) => {
      const row = await first(sql.getUserByEmail, [email])
      return row ? toUser(row) : null
    }),

    listUnprovenUsers: guarded(
      "listUnprovenUsers",
      async ({ olderThan, limit }: { olderThan: Date; limit: number }) => {
        const found = await rows(sql.listUnprovenUsers, [olderThan, limit])
        return found.map(toUser)
      },
    ),

    getUserByAccount: guarded(
      "getUserByAccount",
      async ({
        provider,
        providerAccountId,
      }: Pick<AdapterAccount, "provider" | "providerAccountId">) => {
        const row = await first(sql.getUserByAccount, [provider, providerAccountId])
        return row ? toUser(row) : null
      },
    ),

    updateUser: guarded(
      "updateUser",
      async (user: Partial<AdapterUser> & Pick<AdapterUser, "id">) => {
        const dbId = toDbId(user.id)
        const row =
          dbId === null
            ? undefined
            : await first(sql.updateUser, [
                dbId,
                ...set(user.name),
                ...set(user.email),
                ...set(user.emailVerified),
                ...set(user.image),
              ])
        if (!row) throw adapterRefusal("updateUser", "no such user")
        return toUser(row)
      },
    ),

    deleteUser: guarded("deleteUser", async (userId: string) => {
      const dbId = toDbId(userId)
      if (dbId === null) return null
      const row = await first(sql.deleteUser, [dbId])
      return row ? toUser(row) : null
    }),

    linkAccount: guarded("linkAccount", async (account: AdapterAccount) => {
      const userId = toDbId(account.userId)
      if (userId === null)
        throw adapterRefusal("linkAccount", "userId is not an id of this database")
      const row = await first(sql.linkAccount, accountParams(account, userId))
      return row ? toAccount(row) : null
    }),

    unlinkAccount: guarded(
      "unlinkAccount",
      async ({
        provider,
        providerAccountId,
      }: Pick<AdapterAccount, "provider" | "providerAccountId">) => {
        const row = await first(sql.unlinkAccount, [provider, providerAccountId])
        return row ? toAccount(row) : undefined
      },
    ),

    getAccount: guarded("getAccount", async (providerAccountId: string, provider: string) => {
      const row = await first(sql.getAccount, [providerAccountId, provider])
      return row ? toAccount(row) : null
    }),

    getAccountByUserId: guarded("getAccountByUserId", async (userId: string, provider: string) => {
      const dbId = toDbId(userId)
      if (dbId === null) return null
      const row = await first(sql.getAccountByUserId, [dbId, provider])
      return row ? toAccount(row) : null
    }),

    updateAccount: guarded("updateAccount", async (patch: AccountTokensUpdate) => {
      const row = await first(sql.updateAccount, [
        patch.provider,
        patch.providerAccountId,
        ...set(patch.access_token),
        ...set(patch.refresh_token),
        ...set(patch.expires_at),
        ...set(patch.id_token),
        ...set(patch.token_type),
        ...set(patch.scope),
      ])
      return row ? toAccount(row) : null
    }),

    deleteSession: guarded("deleteSession", async (sessionToken: string) => {
      const row = await first(sql.deleteSession, [await tokenKey(sessionToken)])
      return row ? toSession(sessionToken, row) : null
    }),

    createVerificationToken: guarded(
      "createVerificationToken",
      async ({ identifier, expires, token }: VerificationToken) => {
        const row = await first(sql.createVerificationToken, [identifier, expires, token])
        return row ? toVerificationToken(row) : null
      },
    ),

    useVerificationToken: guarded(
      "useVerificationToken",
      async ({ identifier, token }: { identifier: string; token: string }) => {
        const row = await first(sql.useVerificationToken, [identifier, token])
        return row ? toVerificationToken(row) : null
      },
    ),
  }

  const account = options.account !== false
  // Migration 0009 comes after 0005: a database with the organizations has the account columns.
  const organizations = account && options.organizations !== false
  if (options.revocation !== false) {
    Object.assign(adapter, revocationMethods(), sessionRecordMethods(account))
  }
  Object.assign(adapter, sessionMethods(account, organizations))
  if (account) Object.assign(adapter, accountMethods())
  if (options.twoFactor !== false) Object.assign(adapter, twoFactorMethods())
  if (options.password !== false) Object.assign(adapter, passwordMethods())
  if (organizations) {
    Object.assign(adapter, organizationMethods({ client, timeoutMs, rows, guarded }))
  }

  // The adapter carries the code that serves it at sign-in (`withAdapterFeature`).
  if (options.authenticators === false) return withAdapterFeature(adapter)
  return withAdapterFeature({ ...adapter, ...authenticatorMethods(account) })

  /** Listing and ending sessions by public id, and the user's accounts (migration 0005). */
  function accountMethods(): Partial<Adapter> {
    return {
      listSessionsByUserId: guarded("listSessionsByUserId", async (userId: string) => {
        const dbId = toDbId(userId)
        if (dbId === null) return []
        const found = await rows(sql.listSessionsByUserId, [dbId])
        return found.map((row) => ({
          userId: String(row.userId),
          expires: toDate(row.expires),
          ...sessionExtras(row),
        }))
      }),

      deleteSessionById: guarded("deleteSessionById", async (userId: string, id: string) => {
        const dbId = toDbId(userId)
        // Not a UUID: no session has it (and the cast would fail).
        if (dbId === null || !isUuid(id)) return false
        return (await rows(sql.deleteSessionById, [dbId, id])).length > 0
      }),

      listAccountsByUserId: guarded("listAccountsByUserId", async (userId: string) => {
        const dbId = toDbId(userId)
        if (dbId === null) return []
        return (await rows(sql.listAccountsByUserId, [dbId])).map(toAccount)
      }),
    }
  }

  /**
   * Session records; with `full`, also the last re-issue and the user agent (the columns of
   * migration 0005, read and written only when the account columns exist).
   */
  function sessionRecordMethods(full: boolean): Partial<Adapter> {
    return {
      createSessionRecord: guarded(
        "createSessionRecord",
        async (record: AdapterSessionRecord, bound?: SessionRecordBound) => {
          const extra = full ? [record.lastSeenAt ?? null, record.userAgent ?? null] : []
          await rows(full ? sql.createSessionRecordFull : sql.createSessionRecord, [
            record.sid,
            record.userId,
            record.authTime,
            record.expires,
            ...extra,
            othersKept(bound),
          ])
        },
      ),
      listSessionRecords: guarded("listSessionRecords", async (userId: string) => {
        const found = await rows(full ? sql.listSessionRecordsFull : sql.listSessionRecords, [
          userId,
        ])
        return found.map((row) => ({
          sid: String(row.sid),
          userId: String(row.userId),
          authTime: toDate(row.authTime),
          expires: toDate(row.expires),
          ...(full
            ? {
                lastSeenAt: row.lastSeenAt == null ? null : toDate(row.lastSeenAt),
                userAgent: row.userAgent == null ? null : String(row.userAgent),
              }
            : {}),
        }))
      }),
    }
  }

  /**
   * Database sessions. With the account columns (migration 0005, `account`): a public id, when
   * created and last seen, a coarse user agent and the sign-in facts (`authTime`, `amr`);
   * without them, the Auth.js columns alone. With the organizations (migration 0009), also the
   * active organization.
   */
  function sessionMethods(withAccount: boolean, withOrganizations: boolean): Partial<Adapter> {
    const q = withAccount
      ? {
          create: sql.createSessionFull,
          read: withOrganizations ? sql.getSessionAndUserOrganizations : sql.getSessionAndUserFull,
          update: withOrganizations ? sql.updateSessionOrganizations : sql.updateSessionFull,
          toSession: toFullSession,
        }
      : {
          create: sql.createSession,
          read: sql.getSessionAndUser,
          update: sql.updateSession,
          toSession,
        }
    return {
      createSession: guarded(
        "createSession",
        async (session: AdapterSession, bound?: SessionRecordBound) => {
          const userId = toDbId(session.userId)
          if (userId === null) {
            throw adapterRefusal("createSession", "userId is not an id of this database")
          }
          // The core bounds only an adapter with the account API; without its columns there is
          // no "createdAt" to find the newest by, and the rows stay as in Auth.js.
          const bounded = withAccount && bound !== undefined
          const row = await first(bounded ? sql.createSessionFullBounded : q.create, [
            userId,
            session.expires,
            await tokenKey(session.sessionToken),
            ...(withAccount
              ? [
                  session.id ?? null,
                  session.createdAt ?? null,
                  session.lastSeenAt ?? null,
                  session.userAgent ?? null,
                  session.authTime ?? null,
                  session.amr ?? null,
                ]
              : []),
            ...(bounded ? [othersKept(bound)] : []),
          ])
          if (!row) throw adapterRefusal("createSession", "no row returned")
          // The row holds the hash; the core gets back the token it gave.
          return q.toSession(session.sessionToken, row)
        },
      ),

      getSessionAndUser: guarded("getSessionAndUser", async (sessionToken: string) => {
        const row = await first(q.read, [await tokenKey(sessionToken)])
        if (!row) return null
        const user = toUser(row)
        return {
          session: {
            sessionToken,
            userId: user.id,
            expires: toDate(row.sessionExpires),
            ...(withAccount ? sessionExtras(row, row.sessionCreatedAt) : {}),
          },
          user,
        }
      }),

      updateSession: guarded(
        "updateSession",
        async (session: Partial<AdapterSession> & Pick<AdapterSession, "sessionToken">) => {
          const userId = session.userId === undefined ? null : toDbId(session.userId)
          if (session.userId !== undefined && userId === null) {
            throw adapterRefusal("updateSession", "userId is not an id of this database")
          }
          const active = session.activeOrganizationId
          if (withOrganizations && active != null && !isUuid(active)) {
            throw adapterRefusal("updateSession", "no such organization")
          }
          const row = await first(q.update, [
            await tokenKey(session.sessionToken),
            session.expires ?? null,
            userId,
            ...(withAccount ? [session.lastSeenAt ?? null] : []),
            ...(withOrganizations ? set(active) : []),
          ])
          return row ? q.toSession(session.sessionToken, row) : null
        },
      ),
    }
  }

  /**
   * Passkeys. With the account columns (migration 0005, `account`): names, creation and last
   * use, and delete and rename by their owner only; without them, the Auth.js columns alone.
   */
  function authenticatorMethods(withAccount: boolean): Partial<Adapter> {
    const q = withAccount
      ? {
          create: sql.createAuthenticatorFull,
          get: sql.getAuthenticatorFull,
          list: sql.listAuthenticatorsByUserIdFull,
          updateCounter: sql.updateAuthenticatorCounterFull,
        }
      : {
          create: sql.createAuthenticator,
          get: sql.getAuthenticator,
          list: sql.listAuthenticatorsByUserId,
          updateCounter: sql.updateAuthenticatorCounter,
        }
    const core: Partial<Adapter> = {
      createAuthenticator: guarded("createAuthenticator", async (a: AdapterAuthenticator) => {
        const userId = toDbId(a.userId)
        if (userId === null) {
          throw adapterRefusal("createAuthenticator", "userId is not an id of this database")
        }
        const row = await first(q.create, [
          a.credentialID,
          userId,
          a.providerAccountId,
          a.credentialPublicKey,
          a.counter,
          a.credentialDeviceType,
          a.credentialBackedUp,
          a.transports ?? null,
          ...(withAccount ? [a.name ?? null, a.createdAt ?? null] : []),
        ])
        if (!row) throw adapterRefusal("createAuthenticator", "no row returned")
        return toAuthenticator(row)
      }),

      getAuthenticator: guarded("getAuthenticator", async (credentialID: string) => {
        const row = await first(q.get, [credentialID])
        return row ? toAuthenticator(row) : null
      }),

      listAuthenticatorsByUserId: guarded("listAuthenticatorsByUserId", async (userId: string) => {
        const dbId = toDbId(userId)
        if (dbId === null) return []
        return (await rows(q.list, [dbId])).map(toAuthenticator)
      }),

      updateAuthenticatorCounter: guarded(
        "updateAuthenticatorCounter",
        async (credentialID: string, newCounter: number) => {
          const row = await first(q.updateCounter, [credentialID, newCounter])
          if (!row) throw adapterRefusal("updateAuthenticatorCounter", "no such credential")
          return toAuthenticator(row)
        },
      ),
    }
    if (!withAccount) return core
    return {
      ...core,

      deleteAuthenticator: guarded(
        "deleteAuthenticator",
        async (userId: string, credentialID: string) => {
          const dbId = toDbId(userId)
          if (dbId === null) return false
          return (await rows(sql.deleteAuthenticator, [dbId, credentialID])).length > 0
        },
      ),

      renameAuthenticator: guarded(
        "renameAuthenticator",
        async (userId: string, credentialID: string, name: string) => {
          const dbId = toDbId(userId)
          if (dbId === null) return false
          return (await rows(sql.renameAuthenticator, [dbId, credentialID, name])).length > 0
        },
      ),
    }
  }
}
