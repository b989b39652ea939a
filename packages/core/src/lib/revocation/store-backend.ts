/**
 * Revocation state in a `Store` (memory or Redis). A strict read asks two questions at once:
 * through `getMany` when the store has it (Redis: one `MGET` for both keys), else with two
 * `get`s side by side, which a pipelining client sends in one round trip.
 */
import type { Store } from "../rate-limit/store.js"
import { nowSeconds } from "../time.js"
import type { RevocationBackend, RevocationVerdict, SessionRecord } from "./backend.js"

/** Most sessions listed per user: the list is one value, and values are bounded. */
export const MAX_LISTED_SESSIONS = 50

const sidKey = (sid: string) => `revoked-sid:${sid}`
const versionKey = (userId: string) => `session-version:${userId}`
const listKey = (userId: string) => `sessions:${userId}`

function parseList(raw: string | null): SessionRecord[] {
  if (!raw) return []
  try {
    const parsed: unknown = JSON.parse(raw)
    return Array.isArray(parsed) ? (parsed as SessionRecord[]) : []
  } catch {
    return []
  }
}

function versionOf(raw: string | null): number {
  const version = raw === null ? 0 : Number(raw)
  return Number.isFinite(version) ? version : 0
}

/** `lifetimeSeconds`: the longest a session token can live (the larger of the two maxAges). */
export function storeRevocation(store: Store, lifetimeSeconds: number): RevocationBackend {
  const lifetimeMs = lifetimeSeconds * 1000

  const userVersion = async (userId: string) => versionOf(await store.get(versionKey(userId)))

  /** The revoked-sid marker and the user's version, in one call when the store can. */
  const lookUp = async (sid: string | undefined, userId: string | undefined) => {
    if (store.getMany && sid !== undefined && userId !== undefined) {
      const [revoked = null, version = null] = await store.getMany([
        sidKey(sid),
        versionKey(userId),
      ])
      return [revoked, versionOf(version)] as const
    }
    return await Promise.all([
      sid === undefined ? null : store.get(sidKey(sid)),
      userId === undefined ? 0 : userVersion(userId),
    ])
  }

  return {
    async check(sid, userId, sv): Promise<RevocationVerdict> {
      const [revoked, version] = await lookUp(sid, userId)
      if (revoked !== null) return { revoked: true, reason: "sid" }
      if (sv < version) return { revoked: true, reason: "user-version" }
      return { revoked: false }
    },

    userVersion,

    async revokeSession(sid, untilSeconds) {
      const ttlMs = Math.max(1000, (untilSeconds - nowSeconds()) * 1000)
      await store.set(sidKey(sid), "1", ttlMs)
    },

    async revokeUserSessions(userId) {
      // Milliseconds, and never lower than before: versions only grow, whichever instance
      // bumps. Two bumps racing may write the same value; both still end every older session.
      const next = Math.max(Date.now(), (await userVersion(userId)) + 1)
      await store.set(versionKey(userId), String(next), lifetimeMs)
      await store.delete(listKey(userId))
    },

    async recordSession(record) {
      // Read-modify-write: two sign-ins of one user at the same instant may drop one entry
      // from the list (the sessions themselves are unaffected). The list is for display.
      const now = nowSeconds()
      const list = parseList(await store.get(listKey(record.userId)))
        .filter((r) => r.expires > now && r.sid !== record.sid)
        .concat(record)
        .slice(-MAX_LISTED_SESSIONS)
      const until = Math.max(...list.map((r) => r.expires))
      await store.set(listKey(record.userId), JSON.stringify(list), (until - now) * 1000)
    },

    async listSessions(userId) {
      const now = nowSeconds()
      const list = parseList(await store.get(listKey(userId))).filter((r) => r.expires > now)
      const revoked = await Promise.all(list.map((r) => store.get(sidKey(r.sid))))
      return list.filter((_, i) => revoked[i] === null)
    },
  }
}
