import { describe, expect, it } from "vitest"
import {
  type ContractContext,
  createUser,
  dateWithMs,
  newAccount,
  newSession,
  newUser,
  unique,
} from "./context.js"

export function userTests(t: ContractContext) {
  describe("users", () => {
    it("createUser stores every field and returns the user with a string id", async () => {
      const input = newUser({ emailVerified: dateWithMs() })
      const user = await t.adapter.createUser(input)
      expect(typeof user.id).toBe("string")
      expect(user.id.length).toBeGreaterThan(0)
      // The adapter may keep the proposed id or generate its own; everything else is as given.
      expect(user).toEqual({ ...input, id: user.id })
    })

    it("createUser keeps null name, image and emailVerified as null", async () => {
      const user = await createUser(t.adapter, { name: null, image: null, emailVerified: null })
      expect(await t.adapter.getUser(user.id)).toEqual(user)
      expect(user.name).toBeNull()
      expect(user.image).toBeNull()
      expect(user.emailVerified).toBeNull()
    })

    it("createUser gives distinct ids", async () => {
      const a = await createUser(t.adapter)
      const b = await createUser(t.adapter)
      expect(a.id).not.toBe(b.id)
    })

    it("getUser returns the stored user, null for unknown or malformed ids", async () => {
      const user = await createUser(t.adapter, { emailVerified: dateWithMs(-1) })
      expect(await t.adapter.getUser(user.id)).toEqual(user)
      // Ids another adapter would generate (a JWT `sub` after switching strategy, say).
      for (const id of ["2147483000", crypto.randomUUID(), "not-an-id", "", "-1", "1.5"]) {
        expect(await t.adapter.getUser(id)).toBeNull()
      }
    })

    it("getUserByEmail finds by the exact address, null otherwise", async () => {
      const user = await createUser(t.adapter)
      expect(await t.adapter.getUserByEmail(user.email)).toEqual(user)
      expect(await t.adapter.getUserByEmail(`${unique()}@example.com`)).toBeNull()
      // Normalising addresses is the core's job: the adapter compares exactly.
      expect(await t.adapter.getUserByEmail(user.email.toUpperCase())).toBeNull()
    })

    it("getUserByAccount finds the user a provider account is linked to", async () => {
      const user = await createUser(t.adapter)
      const account = newAccount(user.id)
      await t.adapter.linkAccount(account)
      const key = { provider: account.provider, providerAccountId: account.providerAccountId }
      expect(await t.adapter.getUserByAccount(key)).toEqual(user)
      expect(
        await t.adapter.getUserByAccount({
          provider: "google",
          providerAccountId: key.providerAccountId,
        }),
      ).toBeNull()
      expect(
        await t.adapter.getUserByAccount({ provider: key.provider, providerAccountId: unique() }),
      ).toBeNull()
    })

    it("updateUser changes the given fields only and returns the whole user", async () => {
      const user = await createUser(t.adapter)
      const verified = dateWithMs(42)
      const updated = await t.adapter.updateUser({ id: user.id, emailVerified: verified })
      expect(updated).toEqual({ ...user, emailVerified: verified })
      expect(await t.adapter.getUser(user.id)).toEqual(updated)

      const renamed = await t.adapter.updateUser({ id: user.id, name: "Grace", image: null })
      expect(renamed).toEqual({ ...updated, name: "Grace", image: null })
      expect(await t.adapter.getUser(user.id)).toEqual(renamed)
    })

    it("updateUser can change the email, and lookups follow it", async () => {
      const user = await createUser(t.adapter)
      const email = `${unique("new-")}@example.com`
      await t.adapter.updateUser({ id: user.id, email })
      expect(await t.adapter.getUserByEmail(email)).toEqual({ ...user, email })
      expect(await t.adapter.getUserByEmail(user.email)).toBeNull()
    })

    it("updateUser of an unknown user rejects", async () => {
      await expect(
        Promise.resolve().then(() => t.adapter.updateUser({ id: "2147483000", name: "x" })),
      ).rejects.toThrow()
    })

    it("deleteUser removes the user with its accounts and sessions, and nothing else", async () => {
      const user = await createUser(t.adapter)
      const other = await createUser(t.adapter)
      const account = newAccount(user.id)
      const otherAccount = newAccount(other.id)
      await t.adapter.linkAccount(account)
      await t.adapter.linkAccount(otherAccount)
      const session = await t.adapter.createSession(newSession(user.id))
      const otherSession = await t.adapter.createSession(newSession(other.id))

      await t.adapter.deleteUser(user.id)

      expect(await t.adapter.getUser(user.id)).toBeNull()
      expect(await t.adapter.getUserByEmail(user.email)).toBeNull()
      expect(await t.adapter.getUserByAccount(account)).toBeNull()
      expect(await t.adapter.getAccount(account.providerAccountId, account.provider)).toBeNull()
      expect(await t.adapter.getSessionAndUser(session.sessionToken)).toBeNull()

      expect(await t.adapter.getUser(other.id)).toEqual(other)
      expect(await t.adapter.getUserByAccount(otherAccount)).toEqual(other)
      expect((await t.adapter.getSessionAndUser(otherSession.sessionToken))?.user).toEqual(other)
    })

    it("deleteUser returns the deleted user (or nothing) and tolerates unknown ids", async () => {
      const user = await createUser(t.adapter)
      const deleted = await t.adapter.deleteUser(user.id)
      if (deleted) expect(deleted).toEqual(user)
      await expect(Promise.resolve().then(() => t.adapter.deleteUser(user.id))).resolves.toBeFalsy()
      await expect(
        Promise.resolve().then(() => t.adapter.deleteUser("not-an-id")),
      ).resolves.toBeFalsy()
    })
  })
}
