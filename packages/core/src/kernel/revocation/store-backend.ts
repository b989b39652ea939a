/**
 * Revocation state in a `Store` (memory or Redis). A strict read asks two questions at once:
 * through `getMany` when the store has it (Redis: one `MGET` for both keys), else with two
 * `get`s side by side, which a pipelining client sends in one round trip.
 *
 * The per-user session list is a map (one field per session) when the store has maps
 * (`mapSet`: the memory store, Redis): each sign-in writes its own field in one atomic step,
 * so two sign-ins at the same instant are both listed.
 */

import { nowSeconds } from "../runtime/time.js"
import type { Store } from "../types/store.js"
import type { RevocationBackend, RevocationVerdict, SessionRecord } from "./backend.js"

/** Most sessions listed per user (the newest sign-ins), unless `session.maxListedSessions` says. */
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

type MapStore = Store & Required<Pick<Store, "mapSet" | "mapGetAll" | "mapDelete">>

function hasMaps(store: Store): store is MapStore {
  return (
    typeof store.mapSet === "function" &&
    typeof store.mapGetAll === "function" &&
    typeof store.mapDelete === "function"
  )
}

function parseRecord(raw: string): SessionRecord | undefined {
  try {
    const r = JSON.parse(raw) as SessionRecord | null
    return typeof r?.sid === "string" && typeof r.expires === "number" ? r : undefined
  } catch {
    return undefined
  }
}

/**
 * The map's records that have not expired, oldest sign-in first, at most `max` (the newest).
 * Expired and overflowing fields are removed: that only ever deletes fields no list would
 * show, so it cannot race a new sign-in away. (A map written with a bound never overflows; one
 * written before bounds existed, or with a larger bound, is brought down here.)
 */
async function liveMapRecords(store: MapStore, key: string, now: number, max: number) {
  const live: SessionRecord[] = []
  const dead: string[] = []
  for (const [field, raw] of Object.entries(await store.mapGetAll(key))) {
    const record = parseRecord(raw)
    if (record && record.expires > now) live.push(record)
    else dead.push(field)
  }
  live.sort((a, b) => a.authTime - b.authTime)
  const overflow = live.splice(0, Math.max(0, live.length - max))
  dead.push(...overflow.map((r) => r.sid))
  if (dead.length > 0) await store.mapDelete(key, dead)
  return live
}

/** The record `sid` wrote at sign-in: one field when the store reads single fields. */
async function mapRecord(store: MapStore, key: string, sid: string) {
  const raw = store.mapGet ? await store.mapGet(key, sid) : (await store.mapGetAll(key))[sid]
  return parseRecord(raw ?? "")
}

/**
 * Where a session stands in "oldest first": its sign-in time in milliseconds. A sign-in is
 * recorded in the millisecond it happens (no `lastSeen` yet), so a burst of sign-ins within
 * one second still drops the earliest; a re-issue only knows the second (`authTime`).
 */
function signInRank(record: SessionRecord): number {
  return record.lastSeen === undefined ? Date.now() : record.authTime * 1000
}

export interface StoreRevocationOptions {
  /** The longest a session token can live (the larger of the two maxAges), in seconds. */
  lifetimeSeconds: number
  /** Most sessions listed per user; a sign-in past it drops the oldest. Default 50. */
  maxListed?: number
}

export function storeRevocation(store: Store, options: StoreRevocationOptions): RevocationBackend {
  const lifetimeMs = options.lifetimeSeconds * 1000
  const maxListed = options.maxListed ?? MAX_LISTED_SESSIONS

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
      const now = nowSeconds()
      const key = listKey(record.userId)
      if (hasMaps(store)) {
        let full = record
        if (record.userAgent === undefined) {
          // A re-issue: keep what the sign-in recorded. Only this session writes this field.
          const before = await mapRecord(store, key, record.sid)
          if (before?.userAgent !== undefined) full = { ...record, userAgent: before.userAgent }
        }
        // One atomic field write per session: two sign-ins at the same instant both stay. The
        // bound drops the oldest sign-in in the same step, so the map never outgrows the list.
        const ttlMs = Math.max(1, record.expires - now) * 1000
        const bound = { maxFields: maxListed, rank: signInRank(record) }
        await store.mapSet(key, record.sid, JSON.stringify(full), ttlMs, bound)
        return
      }
      // A store without maps: read-modify-write, so two sign-ins of one user at the same
      // instant may drop one entry from the list (the sessions themselves are unaffected).
      const before = parseList(await store.get(key))
      const userAgent = record.userAgent ?? before.find((r) => r.sid === record.sid)?.userAgent
      const list = before
        .filter((r) => r.expires > now && r.sid !== record.sid)
        .concat(userAgent === undefined ? record : { ...record, userAgent })
        .sort((a, b) => a.authTime - b.authTime)
        .slice(-maxListed)
      const until = Math.max(...list.map((r) => r.expires))
      await store.set(key, JSON.stringify(list), (until - now) * 1000)
    },

    async listSessions(userId) {
      const now = nowSeconds()
      const list = hasMaps(store)
        ? await liveMapRecords(store, listKey(userId), now, maxListed)
        : parseList(await store.get(listKey(userId)))
            .filter((r) => r.expires > now)
            .slice(-maxListed)
      const keys = list.map((r) => sidKey(r.sid))
      const revoked = store.getMany
        ? await store.getMany(keys)
        : await Promise.all(keys.map((key) => store.get(key)))
      return list.filter((_, i) => revoked[i] === null)
    },
  }
}
