import { type Adapter, revocationAdapterMethods } from "@latchkey/core/adapters"
import { describe, expect, it } from "vitest"
import { type ContractContext, createUser, newSession, unique } from "./context.js"

type RevocationAdapter = Required<
  Pick<Adapter, (typeof revocationAdapterMethods)[number] | "deleteUserSessions">
>

const inOneHour = () => new Date(Date.now() + 3_600_000)
const anHourAgo = () => new Date(Date.now() - 3_600_000)

/** Session revocation (optional methods): skipped for adapters without them. */
export function revocationTests(t: ContractContext) {
  describe("session revocation (optional)", () => {
    const methods = (ctx: { skip: () => void }): RevocationAdapter => {
      const adapter = t.raw
      const all = [...revocationAdapterMethods, "deleteUserSessions"] as const
      if (!all.every((name) => typeof adapter[name] === "function")) ctx.skip()
      return adapter as RevocationAdapter
    }

    it("revokeSession: that sid is revoked until its expiry, no other sid is", async (ctx) => {
      const a = methods(ctx)
      const sid = unique("sid-")
      expect(await a.getSessionRevocation({ sid })).toEqual({ revoked: false, version: 0 })
      await a.revokeSession(sid, inOneHour())
      expect((await a.getSessionRevocation({ sid })).revoked).toBe(true)
      expect((await a.getSessionRevocation({ sid: unique("sid-") })).revoked).toBe(false)
      // Revoking again (two sign-outs racing) is fine.
      await a.revokeSession(sid, inOneHour())
      const past = unique("sid-")
      await a.revokeSession(past, anHourAgo())
      expect((await a.getSessionRevocation({ sid: past })).revoked).toBe(false)
    })

    it("bumpUserSessionVersion counts atomically per user; other users stay at 0", async (ctx) => {
      const a = methods(ctx)
      const userId = unique("user-")
      const versions = await Promise.all(
        Array.from({ length: 10 }, async () => a.bumpUserSessionVersion(userId)),
      )
      expect([...versions].sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
      expect(await a.getSessionRevocation({ userId })).toEqual({ revoked: false, version: 10 })
      expect((await a.getSessionRevocation({ userId: unique("user-") })).version).toBe(0)
      // One lookup answers both questions.
      const sid = unique("sid-")
      await a.revokeSession(sid, inOneHour())
      expect(await a.getSessionRevocation({ sid, userId })).toEqual({ revoked: true, version: 10 })
    })

    it("session records round-trip, update by sid, and leave out expired ones", async (ctx) => {
      const a = methods(ctx)
      const userId = unique("user-")
      const first = {
        sid: unique("sid-"),
        userId,
        authTime: new Date(1_700_000_000_000),
        expires: inOneHour(),
      }
      const second = {
        sid: unique("sid-"),
        userId,
        authTime: new Date(1_700_000_100_000),
        expires: inOneHour(),
      }
      await a.createSessionRecord(second)
      await a.createSessionRecord(first)
      await a.createSessionRecord({
        sid: unique("sid-"),
        userId,
        authTime: new Date(),
        expires: anHourAgo(),
      })
      const listed = await a.listSessionRecords(userId)
      expect(listed.map((r) => r.sid)).toEqual([first.sid, second.sid])
      expect(listed[0]!.authTime.getTime()).toBe(first.authTime.getTime())
      const later = new Date(Date.now() + 7_200_000)
      await a.createSessionRecord({ ...first, expires: later })
      const updated = await a.listSessionRecords(userId)
      expect(updated).toHaveLength(2)
      expect(updated[0]!.expires.getTime()).toBe(later.getTime())
      expect(await a.listSessionRecords(unique("user-"))).toEqual([])
    })

    it("a bounded write keeps the user's newest records only; no bound keeps all", async (ctx) => {
      const a = methods(ctx)
      const userId = unique("user-")
      const other = unique("user-")
      const at = (i: number) => new Date(1_700_000_000_000 + i * 1000)
      const sids = Array.from({ length: 8 }, () => unique("sid-"))
      for (const [i, sid] of sids.entries()) {
        await a.createSessionRecord({ sid, userId, authTime: at(i), expires: inOneHour() })
      }
      await a.createSessionRecord({
        sid: unique("sid-"),
        userId: other,
        authTime: at(0),
        expires: inOneHour(),
      })
      expect(await a.listSessionRecords(userId)).toHaveLength(8)
      const newest = unique("sid-")
      await a.createSessionRecord(
        { sid: newest, userId, authTime: at(9), expires: inOneHour() },
        { maxPerUser: 3 },
      )
      expect((await a.listSessionRecords(userId)).map((r) => r.sid)).toEqual([
        sids[6],
        sids[7],
        newest,
      ])
      // Another user's records are not touched.
      expect(await a.listSessionRecords(other)).toHaveLength(1)
    })

    it("revokeSession forgets the record; a bump forgets all the user's records", async (ctx) => {
      const a = methods(ctx)
      const userId = unique("user-")
      const record = (sid: string) => ({ sid, userId, authTime: new Date(), expires: inOneHour() })
      const [x, y, z] = [unique("sid-"), unique("sid-"), unique("sid-")]
      for (const sid of [x, y, z]) await a.createSessionRecord(record(sid))
      await a.revokeSession(x, inOneHour())
      expect((await a.listSessionRecords(userId)).map((r) => r.sid).sort()).toEqual([y, z].sort())
      await a.bumpUserSessionVersion(userId)
      expect(await a.listSessionRecords(userId)).toEqual([])
    })

    it("deleteUserSessions deletes that user's database sessions only", async (ctx) => {
      const a = methods(ctx)
      const user = await createUser(t.adapter)
      const other = await createUser(t.adapter)
      const mine = [newSession(user.id), newSession(user.id)]
      const theirs = newSession(other.id)
      for (const s of [...mine, theirs]) await t.adapter.createSession(s)
      await a.deleteUserSessions(user.id)
      for (const s of mine) expect(await t.adapter.getSessionAndUser(s.sessionToken)).toBeNull()
      expect(await t.adapter.getSessionAndUser(theirs.sessionToken)).not.toBeNull()
      await a.deleteUserSessions(unique("nobody-"))
    })
  })
}
