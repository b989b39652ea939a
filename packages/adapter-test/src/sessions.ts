import { describe, expect, it } from "vitest"
import {
  type ContractContext,
  createUser,
  dateWithMs,
  sessionFields as f,
  newSession,
} from "./context.js"

export function sessionTests(t: ContractContext) {
  describe("sessions", () => {
    it("createSession returns the session; getSessionAndUser returns it with its user", async () => {
      const user = await createUser(t.adapter)
      const input = newSession(user.id)
      const session = await t.adapter.createSession(input)
      expect(f(session)).toEqual(input)
      const found = await t.adapter.getSessionAndUser(input.sessionToken)
      expect({ ...found, session: f(found?.session) }).toEqual({ session: input, user })
    })

    it("getSessionAndUser is null for an unknown token", async () => {
      expect(await t.adapter.getSessionAndUser(newSession("0").sessionToken)).toBeNull()
      expect(await t.adapter.getSessionAndUser("")).toBeNull()
    })

    it("an expired session is still returned, with its exact expiry (expiry is the core's job)", async () => {
      const user = await createUser(t.adapter)
      const expires = new Date(Date.now() - 60_000 + 7)
      const session = await t.adapter.createSession(newSession(user.id, { expires }))
      const found = await t.adapter.getSessionAndUser(session.sessionToken)
      expect(found?.session.expires.getTime()).toBe(expires.getTime())
    })

    it("a user has as many sessions as devices", async () => {
      const user = await createUser(t.adapter)
      const a = await t.adapter.createSession(newSession(user.id))
      const b = await t.adapter.createSession(newSession(user.id, { expires: dateWithMs(1) }))
      expect((await t.adapter.getSessionAndUser(a.sessionToken))?.session).toEqual(a)
      expect((await t.adapter.getSessionAndUser(b.sessionToken))?.session).toEqual(b)
    })

    it("updateSession moves the expiry and returns the updated session", async () => {
      const user = await createUser(t.adapter)
      const session = await t.adapter.createSession(newSession(user.id))
      const expires = dateWithMs(86_400_000 + 1)
      const updated = await t.adapter.updateSession({ sessionToken: session.sessionToken, expires })
      if (updated) expect(f(updated)).toEqual(f({ ...session, expires }))
      const found = await t.adapter.getSessionAndUser(session.sessionToken)
      expect({ ...found, session: f(found?.session) }).toEqual({
        session: f({ ...session, expires }),
        user,
      })
    })

    it("updateSession of an unknown token changes nothing and returns nothing", async () => {
      const result = await t.adapter.updateSession({
        sessionToken: newSession("0").sessionToken,
        expires: dateWithMs(),
      })
      expect(result ?? null).toBeNull()
    })

    it("deleteSession ends that session only", async () => {
      const user = await createUser(t.adapter)
      const a = await t.adapter.createSession(newSession(user.id))
      const b = await t.adapter.createSession(newSession(user.id))
      const deleted = await t.adapter.deleteSession(a.sessionToken)
      if (deleted) expect(f(deleted)).toEqual(f(a))
      expect(await t.adapter.getSessionAndUser(a.sessionToken)).toBeNull()
      expect((await t.adapter.getSessionAndUser(b.sessionToken))?.session).toEqual(b)
      expect(await t.adapter.getUser(user.id)).toEqual(user)
    })

    it("createSession with a bound keeps the newest N, drops the oldest and expired", async (ctx) => {
      // The core bounds only adapters with the account API; others keep Auth.js's behaviour.
      const list = t.raw.listSessionsByUserId?.bind(t.raw)
      if (!list) return ctx.skip()
      const user = await createUser(t.adapter)
      const other = await createUser(t.adapter)
      const at = (i: number) => new Date(Date.now() - 600_000 + i * 1000)
      const live = new Date(Date.now() + 3_600_000)
      const expired = new Date(Date.now() - 60_000)
      const older = []
      for (let i = 0; i < 6; i++) {
        const expires = i === 4 ? expired : live
        older.push(
          await t.adapter.createSession(newSession(user.id, { expires, createdAt: at(i) })),
        )
      }
      const stranger = await t.adapter.createSession(
        newSession(other.id, { expires: live, createdAt: at(0) }),
      )
      const newest = await t.adapter.createSession(
        newSession(user.id, { expires: live, createdAt: at(9) }),
        { maxPerUser: 3 },
      )
      const kept = [older[3]!, older[5]!, newest]
      const found = async (s: { sessionToken: string }) =>
        (await t.adapter.getSessionAndUser(s.sessionToken)) !== null
      // The expired one goes even though it is among the newest; the oldest go by the bound.
      for (const gone of [older[0]!, older[1]!, older[2]!, older[4]!]) {
        expect(await found(gone)).toBe(false)
      }
      for (const s of kept) expect(await found(s)).toBe(true)
      expect((await list(user.id)).map((s) => s.id)).toEqual(kept.map((s) => s.id))
      // Another user's sessions are not touched; without a bound nothing is dropped.
      expect(await found(stranger)).toBe(true)
      await t.adapter.createSession(newSession(user.id, { expires: live, createdAt: at(10) }))
      expect(await list(user.id)).toHaveLength(4)
    })

    it("deleteSession of an unknown token resolves without effect", async () => {
      const result = await t.adapter.deleteSession(newSession("0").sessionToken)
      expect(result ?? null).toBeNull()
    })
  })
}
