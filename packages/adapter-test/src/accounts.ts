import { describe, expect, it } from "vitest"
import { accountFields, type ContractContext, createUser, newAccount, unique } from "./context.js"

export function accountTests(t: ContractContext) {
  describe("accounts", () => {
    it("linkAccount stores every Auth.js column; getAccount reads them back", async () => {
      const user = await createUser(t.adapter)
      const account = newAccount(user.id)
      const linked = await t.adapter.linkAccount(account)
      if (linked) expect(accountFields(linked)).toEqual(accountFields(account))
      const stored = await t.adapter.getAccount(account.providerAccountId, account.provider)
      expect(accountFields(stored)).toEqual(accountFields(account))
      // `expires_at` is seconds since the epoch: a number, even from a BIGINT column.
      expect(typeof stored?.expires_at).toBe("number")
    })

    it("linkAccount of an account without tokens (email, webauthn) round-trips", async () => {
      const user = await createUser(t.adapter)
      const account = {
        userId: user.id,
        type: "email" as const,
        provider: "nodemailer",
        providerAccountId: user.email,
      }
      await t.adapter.linkAccount(account)
      const stored = await t.adapter.getAccount(account.providerAccountId, account.provider)
      expect(accountFields(stored)).toEqual(accountFields(account))
    })

    it("getAccount is keyed by (providerAccountId, provider) in that argument order", async () => {
      const user = await createUser(t.adapter)
      const account = newAccount(user.id)
      await t.adapter.linkAccount(account)
      expect(await t.adapter.getAccount(account.provider, account.providerAccountId)).toBeNull()
      expect(await t.adapter.getAccount(account.providerAccountId, "gitlab")).toBeNull()
      expect(await t.adapter.getAccount(unique(), account.provider)).toBeNull()
    })

    it("one user may link several providers; the same id at two providers are two accounts", async () => {
      const user = await createUser(t.adapter)
      const other = await createUser(t.adapter)
      const providerAccountId = unique("shared-")
      const github = newAccount(user.id, { provider: "github", providerAccountId })
      const google = newAccount(other.id, { provider: "google", providerAccountId, type: "oidc" })
      const gitlab = newAccount(user.id, { provider: "gitlab" })
      await t.adapter.linkAccount(github)
      await t.adapter.linkAccount(google)
      await t.adapter.linkAccount(gitlab)
      expect(await t.adapter.getUserByAccount(github)).toEqual(user)
      expect(await t.adapter.getUserByAccount(google)).toEqual(other)
      expect(await t.adapter.getUserByAccount(gitlab)).toEqual(user)
    })

    it("unlinkAccount removes that account only", async () => {
      const user = await createUser(t.adapter)
      const providerAccountId = unique("shared-")
      const github = newAccount(user.id, { provider: "github", providerAccountId })
      const google = newAccount(user.id, { provider: "google", providerAccountId })
      await t.adapter.linkAccount(github)
      await t.adapter.linkAccount(google)

      const removed = await t.adapter.unlinkAccount({ provider: "github", providerAccountId })
      if (removed) expect(accountFields(removed)).toEqual(accountFields(github))

      expect(await t.adapter.getAccount(providerAccountId, "github")).toBeNull()
      expect(await t.adapter.getUserByAccount(github)).toBeNull()
      expect(accountFields(await t.adapter.getAccount(providerAccountId, "google"))).toEqual(
        accountFields(google),
      )
      expect(await t.adapter.getUser(user.id)).toEqual(user)
    })

    it("unlinkAccount of an unknown account resolves without effect", async () => {
      await expect(
        Promise.resolve().then(() =>
          t.adapter.unlinkAccount({ provider: "github", providerAccountId: unique() }),
        ),
      ).resolves.toBeFalsy()
    })

    it("linking an already linked (provider, providerAccountId) is refused", async (ctx) => {
      if (!t.capabilities.uniqueAccounts) ctx.skip()
      const a = await createUser(t.adapter)
      const b = await createUser(t.adapter)
      const account = newAccount(a.id)
      await t.adapter.linkAccount(account)
      await expect(
        Promise.resolve().then(() => t.adapter.linkAccount({ ...account, userId: b.id })),
      ).rejects.toThrow()
      expect(await t.adapter.getUserByAccount(account)).toEqual(a)
    })
  })
}
