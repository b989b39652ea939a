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

    it("deleteSession of an unknown token resolves without effect", async () => {
      const result = await t.adapter.deleteSession(newSession("0").sessionToken)
      expect(result ?? null).toBeNull()
    })
  })
}
