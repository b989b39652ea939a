/**
 * Database sessions: the row holds the token's SHA-256 (unless turned off), and with the account
 * API's columns a public id, when it was made and last renewed, a coarse user agent and the
 * sign-in facts. The read is one join, prepared once.
 */
import type { AdapterSession, SessionRecordBound } from "@latchkey/core/adapters"
import { othersKept, preparedStatementName } from "@latchkey/core/adapters/sql"
import { and, asc, desc, eq, gt, gte, isNull, lt, or, sql } from "drizzle-orm"
import type { Fields, Row } from "../query.js"
import {
  hasAccountColumns,
  pick,
  sessionColumns,
  toSession,
  toUser,
  userColumns,
} from "../records.js"
import type { LatchkeyTables } from "../tables.js"
import { timeOrderedId } from "../time-order.js"
import type { MethodContext, MethodGroup } from "./group.js"

/** More rows than any user has: the LIMIT an OFFSET needs on SQLite and MySQL. */
const ALL = 2_147_483_647

/**
 * The session's columns under `s_`, beside the user's: one row for the join. Its `userId` is
 * the user's `id`, read once.
 */
function joinedFields(t: LatchkeyTables): Fields {
  const session = Object.entries(pick(t.sessions, sessionColumns))
    .filter(([k]) => k !== "userId")
    .map(([k, v]) => [`s_${k}`, v])
  return { ...pick(t.users, userColumns), ...Object.fromEntries(session) }
}

function sessionOf(row: Row): Row {
  const session: Row = { userId: row.id }
  for (const key in row) if (key.startsWith("s_")) session[key.slice(2)] = row[key]
  return session
}

export const sessions: MethodGroup = {
  available: () => true,
  userRows: (t) => [{ table: t.sessions, userId: t.sessions.userId }],
  methods(ctx) {
    const { dialect, t, guarded, storedToken } = ctx
    const { db } = dialect
    const s = t.sessions
    const withAccount = hasAccountColumns(t)
    const fields = pick(s, sessionColumns)
    const byToken = async (sessionToken: string) =>
      eq(s.sessionToken, await storedToken(sessionToken))

    const read = db
      .select(joinedFields(t))
      .from(s)
      .innerJoin(t.users, eq(t.users.id, s.userId))
      .where(eq(s.sessionToken, sql.placeholder("token")))
    let readPrepared: ((values: Row) => Promise<Row[]>) | undefined

    return {
      createSession: guarded(
        "createSession",
        async (session: AdapterSession, bound?: SessionRecordBound) => {
          const row = {
            sessionToken: await storedToken(session.sessionToken),
            userId: session.userId,
            expires: session.expires,
            ...(withAccount ? accountFieldsOf(session) : {}),
          }
          // The core bounds only an adapter with the account API's columns: without them there
          // is no "createdAt" to find the newest by, and the rows stay as in Auth.js.
          if (withAccount && bound) {
            await dialect.atomic((tx) => [
              tx.delete(s).where(beyondBound(ctx, session.userId, othersKept(bound))),
              tx.insert(s).values(row),
            ])
          } else {
            await db.insert(s).values(row)
          }
          // The row holds the hash; the core gets back the token it gave.
          return toSession(session.sessionToken, row)
        },
      ),

      getSessionAndUser: guarded("getSessionAndUser", async (sessionToken: string) => {
        readPrepared ??= dialect.prepare(
          preparedStatementName("getSessionAndUser", read.toSQL().sql),
          read,
        )
        const [row] = await readPrepared({ token: await storedToken(sessionToken) })
        if (!row) return null
        return { session: toSession(sessionToken, sessionOf(row)), user: toUser(row) }
      }),

      updateSession: guarded(
        "updateSession",
        async (patch: Partial<AdapterSession> & Pick<AdapterSession, "sessionToken">) => {
          const set: Row = {}
          if (patch.expires) set.expires = patch.expires
          if (patch.userId !== undefined) set.userId = patch.userId
          if (withAccount && patch.lastSeenAt) set.lastSeenAt = patch.lastSeenAt
          // `null` clears it; `undefined` (a slide) leaves it.
          if (s.activeOrganizationId && patch.activeOrganizationId !== undefined) {
            set.activeOrganizationId = patch.activeOrganizationId
          }
          const where = await byToken(patch.sessionToken)
          const [row] =
            Object.keys(set).length > 0
              ? await dialect.updateReturning(s, set, where, fields)
              : await db.select(fields).from(s).where(where)
          return row ? toSession(patch.sessionToken, row) : null
        },
      ),

      deleteSession: guarded("deleteSession", async (sessionToken: string) => {
        const [row] = await dialect.deleteReturning(s, await byToken(sessionToken), fields)
        return row ? toSession(sessionToken, row) : null
      }),

      deleteUserSessions: guarded("deleteUserSessions", async (userId: string) => {
        await db.delete(s).where(eq(s.userId, userId))
      }),

      ...(withAccount && {
        listSessionsByUserId: guarded("listSessionsByUserId", async (userId: string) => {
          await givePublicIds(ctx, userId)
          const createdAt = s.createdAt!
          const rows = await db
            .select(fields)
            .from(s)
            .where(and(eq(s.userId, userId), gt(s.expires, new Date())))
            .orderBy(sql`${createdAt} is not null`, asc(createdAt), asc(s.publicId!))
          return rows.map((row) => {
            const { sessionToken: _, ...listed } = toSession("", row)
            return listed
          })
        }),

        // The user id in the WHERE clause: another user's session id matches nothing.
        deleteSessionById: guarded("deleteSessionById", async (userId: string, id: string) => {
          const where = and(eq(s.userId, userId), eq(s.publicId!, id))!
          return (await dialect.deleteReturning(s, where, { id: s.publicId! })).length > 0
        }),
      }),
    }

    function accountFieldsOf(session: AdapterSession): Row {
      return {
        // The adapter's own id, not the one the core proposes: time-ordered, see time-order.ts.
        publicId: timeOrderedId(),
        createdAt: session.createdAt ?? new Date(),
        lastSeenAt: session.lastSeenAt ?? null,
        userAgent: session.userAgent ?? null,
        authTime: session.authTime ?? null,
        amr: Array.isArray(session.amr) ? JSON.stringify(session.amr) : null,
      }
    }
  },
}

/**
 * The user's sessions a bounded write removes: the expired ones, and the live ones beyond the
 * newest `keep` (newest by `createdAt`, as `listSessionsByUserId` orders them). The new row is
 * not in the table yet, so it is never among them. Through a derived table, which MySQL needs
 * to read the table a DELETE deletes from. Concurrent sign-ins of one user may leave a few rows
 * over the bound until the next one trims them.
 */
function beyondBound({ dialect, t }: MethodContext, userId: string, keep: number) {
  const s = t.sessions
  const now = new Date()
  const live = dialect.db
    .select({ publicId: s.publicId! })
    .from(s)
    .where(and(eq(s.userId, userId), gte(s.expires, now)))
    .orderBy(sql`${s.createdAt!} is null`, desc(s.createdAt!), desc(s.publicId!))
    .limit(ALL)
    .offset(keep)
  const beyond = sql`${s.publicId!} in (select ${sql.identifier("publicId")} from (${live}) as beyond)`
  return and(eq(s.userId, userId), or(lt(s.expires, now), beyond))
}

/**
 * Rows written without a public id (by Auth.js, before the move) get one when first listed,
 * so the account API can name them. `publicId IS NULL` in the WHERE: a concurrent listing's id
 * is kept, never overwritten.
 */
async function givePublicIds({ dialect, t }: MethodContext, userId: string): Promise<void> {
  const s = t.sessions
  const publicId = s.publicId!
  const unnamed = await dialect.db
    .select({ token: s.sessionToken })
    .from(s)
    .where(and(eq(s.userId, userId), isNull(publicId)))
  for (const { token } of unnamed) {
    await dialect.db
      .update(s)
      .set({ publicId: timeOrderedId() })
      .where(and(eq(s.sessionToken, String(token)), isNull(publicId)))
  }
}
