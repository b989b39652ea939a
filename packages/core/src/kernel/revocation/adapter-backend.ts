/**
 * Revocation state in the database, through the adapter's optional revocation methods
 * (`@latchkey/adapter-postgres` and the in-memory adapter have them). No Redis needed; a
 * strict read costs one query (`getSessionRevocation`).
 */
import type { RevocationAdapter } from "../types/adapters.js"
import type { RevocationBackend, SessionRecord } from "./backend.js"

const seconds = (date: Date) => Math.floor(date.getTime() / 1000)

/** `maxListed`: most records kept per user (`session.maxListedSessions`). */
export function adapterRevocation(
  adapter: RevocationAdapter,
  maxListed: number,
): RevocationBackend {
  return {
    async check(sid, userId, sv) {
      const found = await adapter.getSessionRevocation({ sid, userId })
      if (found.revoked) return { revoked: true, reason: "sid" }
      if (sv < found.version) return { revoked: true, reason: "user-version" }
      return { revoked: false }
    },
    async userVersion(userId) {
      return (await adapter.getSessionRevocation({ userId })).version
    },
    async revokeSession(sid, untilSeconds) {
      await adapter.revokeSession(sid, new Date(untilSeconds * 1000))
    },
    async revokeUserSessions(userId) {
      await adapter.bumpUserSessionVersion(userId)
    },
    async recordSession(record) {
      await adapter.createSessionRecord(
        {
          sid: record.sid,
          userId: record.userId,
          authTime: new Date(record.authTime * 1000),
          expires: new Date(record.expires * 1000),
          ...(record.lastSeen === undefined
            ? {}
            : { lastSeenAt: new Date(record.lastSeen * 1000) }),
          ...(record.userAgent === undefined ? {} : { userAgent: record.userAgent }),
        },
        { maxPerUser: maxListed },
      )
    },
    async listSessions(userId): Promise<SessionRecord[]> {
      const rows = await adapter.listSessionRecords(userId)
      return rows.map((r) => ({
        sid: r.sid,
        userId: r.userId,
        authTime: seconds(r.authTime),
        expires: seconds(r.expires),
        ...(r.lastSeenAt ? { lastSeen: seconds(r.lastSeenAt) } : {}),
        ...(r.userAgent ? { userAgent: r.userAgent } : {}),
      }))
    },
  }
}
