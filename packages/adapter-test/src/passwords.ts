import { type Adapter, passwordAdapterMethods } from "@latchkey/core/adapters"
import { describe, expect, it } from "vitest"
import { type ContractContext, createUser } from "./context.js"

type PasswordAdapter = Required<Pick<Adapter, (typeof passwordAdapterMethods)[number]>>

const argon = (n: number) =>
  `$argon2id$v=19$m=19456,t=2,p=1$c2FsdHNhbHRzYWx0c2FsdA$${String(n).padStart(43, "A")}`

/**
 * The password methods of the `Password` provider: one hash per user, stored exactly as given,
 * replaced by a new one, deleted once, gone with the user. Skipped for adapters without them.
 */
export function passwordTests(t: ContractContext) {
  describe("password hashes (optional)", () => {
    const methods = (ctx: { skip: () => void }): PasswordAdapter => {
      const adapter = t.raw
      if (!passwordAdapterMethods.every((name) => typeof adapter[name] === "function")) ctx.skip()
      return adapter as PasswordAdapter
    }

    it("a user without a password has none; set then get round-trips the exact string", async (ctx) => {
      const a = methods(ctx)
      const user = await createUser(t.adapter)
      expect(await a.getPasswordHash(user.id)).toBeNull()
      await a.setPasswordHash(user.id, argon(1))
      expect(await a.getPasswordHash(user.id)).toBe(argon(1))
    })

    it("set replaces the hash; each user has their own", async (ctx) => {
      const a = methods(ctx)
      const ann = await createUser(t.adapter)
      const bob = await createUser(t.adapter)
      await a.setPasswordHash(ann.id, argon(1))
      await a.setPasswordHash(
        bob.id,
        "$2b$10$abcdefghijklmnopqrstuuABCDEFGHIJKLMNOPQRSTUVWXYZ01234",
      )
      await a.setPasswordHash(ann.id, "$pbkdf2-sha256$i=600000$c2FsdA$aGFzaA")
      expect(await a.getPasswordHash(ann.id)).toBe("$pbkdf2-sha256$i=600000$c2FsdA$aGFzaA")
      expect(await a.getPasswordHash(bob.id)).toBe(
        "$2b$10$abcdefghijklmnopqrstuuABCDEFGHIJKLMNOPQRSTUVWXYZ01234",
      )
    })

    it("delete says whether there was a hash, and removes only that user's", async (ctx) => {
      const a = methods(ctx)
      const ann = await createUser(t.adapter)
      const bob = await createUser(t.adapter)
      await a.setPasswordHash(ann.id, argon(2))
      await a.setPasswordHash(bob.id, argon(3))
      expect(await a.deletePasswordHash(ann.id)).toBe(true)
      expect(await a.deletePasswordHash(ann.id)).toBe(false)
      expect(await a.getPasswordHash(ann.id)).toBeNull()
      expect(await a.getPasswordHash(bob.id)).toBe(argon(3))
    })

    it("concurrent sets leave one of the hashes, whole", async (ctx) => {
      const a = methods(ctx)
      const user = await createUser(t.adapter)
      await Promise.all([1, 2, 3, 4].map((n) => a.setPasswordHash(user.id, argon(n))))
      expect([1, 2, 3, 4].map(argon)).toContain(await a.getPasswordHash(user.id))
    })

    it("the hash goes with its user", async (ctx) => {
      const a = methods(ctx)
      const user = await createUser(t.adapter)
      await a.setPasswordHash(user.id, argon(4))
      await t.adapter.deleteUser(user.id)
      expect(await a.getPasswordHash(user.id)).toBeNull()
    })

    it("an unknown user id has no hash, and deleting it is false", async (ctx) => {
      const a = methods(ctx)
      const user = await createUser(t.adapter)
      await t.adapter.deleteUser(user.id)
      expect(await a.getPasswordHash(user.id)).toBeNull()
      expect(await a.deletePasswordHash(user.id)).toBe(false)
    })
  })
}
