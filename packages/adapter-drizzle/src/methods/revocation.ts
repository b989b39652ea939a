/**
 * Session revocation through the database (no shared store needed): ended session ids until
 * they could have expired, each user's session version ("sign out everywhere"), and one record
 * per JWT session for the "your devices" list. Expired rows are purged by the writes, so the
 * tables stay as small as the set of sessions that could still be presented.
 */
import type { AdapterSessionRecord, SessionRecordBound } from "@latchkey/core/adapters"
import { othersKept } from "@latchkey/core/adapters/sql"
import { and, asc, desc, eq, gt, lt, ne, or, sql } from "drizzle-orm"
import type { Row } from "../query.js"
import { pick } from "../records.js"
import type { LatchkeyTables } from "../tables.js"
import type { MethodContext, MethodGroup } from "./group.js"

/** More rows than any user has: the LIMIT an OFFSET needs on SQLite and MySQL. */
const ALL = 2_147_483_647

type Tables = Required<
  Pick<LatchkeyTables, "revokedSessions" | "userSessionVersions" | "sessionRecords">
>

const recordColumns = ["sid", "userId", "authTime", "expires", "lastSeenAt", "userAgent"] as const

export const revocation: MethodGroup = {
  available: (t) => Boolean(t.revokedSessions && t.userSessionVersions && t.sessionRecords),
  methods(ctx) {
    const { dialect, guarded } = ctx
    const { db } = dialect
    const {
      revokedSessions: revoked,
      userSessionVersions: versions,
      sessionRecords: records,
    } = ctx.t as Tables
    // With the account API's columns: the last re-issue and the user agent, kept when a
    // re-issue writes the record again without them.
    const full = Boolean(records.lastSeenAt && records.userAgent)

    return {
      revokeSession: guarded("revokeSession", async (sid: string, expires: Date) => {
        const now = new Date()
        await dialect.atomic((tx) => [
          tx.delete(records).where(eq(records.sid, sid)),
          tx.delete(revoked).where(and(lt(revoked.expires, now), ne(revoked.sid, sid))),
          // Revoked twice (two sign-outs racing): remembered until the later expiry.
          dialect.upsert(tx, revoked, { sid, expires }, [revoked.sid], {
            expires: dialect.greatest(revoked.expires, dialect.inserted(revoked.expires)),
          }),
        ])
      }),

      getSessionRevocation: guarded(
        "getSessionRevocation",
        async ({ sid, userId }: { sid?: string | undefined; userId?: string | undefined }) => {
          const [isRevoked, version] = await Promise.all([
            sid === undefined
              ? []
              : db
                  .select({ sid: revoked.sid })
                  .from(revoked)
                  .where(and(eq(revoked.sid, sid), gt(revoked.expires, new Date()))),
            userId === undefined
              ? []
              : db
                  .select({ version: versions.version })
                  .from(versions)
                  .where(eq(versions.userId, userId)),
          ])
          return { revoked: isRevoked.length > 0, version: Number(version[0]?.version ?? 0) }
        },
      ),

      // The increment and its answer in one statement (or, on MySQL, one transaction): ten
      // concurrent bumps get ten different versions.
      bumpUserSessionVersion: guarded("bumpUserSessionVersion", async (userId: string) =>
        dialect.increment(
          {
            table: versions,
            key: { userId },
            target: versions.userId,
            column: versions.version,
            property: "version",
          },
          (tx) => [tx.delete(records).where(eq(records.userId, userId))],
        ),
      ),

      createSessionRecord: guarded(
        "createSessionRecord",
        async (record: AdapterSessionRecord, bound?: SessionRecordBound) => {
          const row: Row = {
            sid: record.sid,
            userId: record.userId,
            authTime: record.authTime,
            expires: record.expires,
            ...(full
              ? { lastSeenAt: record.lastSeenAt ?? null, userAgent: record.userAgent ?? null }
              : {}),
          }
          const keep = (column: "lastSeenAt" | "userAgent") =>
            sql`coalesce(${dialect.inserted(records[column]!)}, ${records[column]!})`
          await dialect.atomic((tx) => [
            tx.delete(records).where(beyondBound(ctx, record, othersKept(bound))),
            dialect.upsert(tx, records, row, [records.sid], {
              expires: dialect.inserted(records.expires),
              ...(full ? { lastSeenAt: keep("lastSeenAt"), userAgent: keep("userAgent") } : {}),
            }),
          ])
        },
      ),

      listSessionRecords: guarded("listSessionRecords", async (userId: string) => {
        const rows = await db
          .select(pick(records, recordColumns))
          .from(records)
          .where(and(eq(records.userId, userId), gt(records.expires, new Date())))
          .orderBy(asc(records.authTime), asc(records.sid))
        return rows.map((row) => ({
          sid: String(row.sid),
          userId: String(row.userId),
          authTime: row.authTime as Date,
          expires: row.expires as Date,
          ...(full
            ? {
                lastSeenAt: (row.lastSeenAt as Date | null) ?? null,
                userAgent: (row.userAgent as string | null) ?? null,
              }
            : {}),
        }))
      }),
    }
  },
}

/**
 * The user's other records a write removes: the expired ones, and all but the newest `keep`
 * (by sign-in time). Through a derived table, which MySQL needs to read the table a DELETE
 * deletes from.
 */
function beyondBound({ dialect, t }: MethodContext, record: AdapterSessionRecord, keep: number) {
  const records = t.sessionRecords!
  const others = and(eq(records.userId, record.userId), ne(records.sid, record.sid))
  const newest = dialect.db
    .select({ sid: records.sid })
    .from(records)
    .where(others)
    .orderBy(desc(records.authTime), desc(records.sid))
    .limit(ALL)
    .offset(keep)
  const beyond = sql`${records.sid} in (select ${sql.identifier("sid")} from (${newest}) as beyond)`
  return and(others, or(lt(records.expires, new Date()), beyond))
}
