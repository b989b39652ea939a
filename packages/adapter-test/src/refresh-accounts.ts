import { describe, expect, it } from "vitest"
import { accountFields, type ContractContext, createUser, newAccount, unique } from "./context.js"

/**
 * The optional methods provider token refresh needs (`getAccountByUserId`, `updateAccount`),
 * tested when the adapter has them.
 */
export function refreshAccountTests(t: ContractContext) {
  const has = () =>
    typeof t.raw.getAccountByUserId === "function" && typeof t.raw.updateAccount === "function"

  describe("accounts: token refresh methods", () => {
    it("getAccountByUserId finds the user's account at that provider, and nothing else", async () => {
      if (!has()) return
      const user = await createUser(t.adapter)
      const other = await createUser(t.adapter)
      const github = newAccount(user.id, { provider: "github" })
      await t.adapter.linkAccount(github)
      await t.adapter.linkAccount(newAccount(other.id, { provider: "gitlab" }))
      const found = await t.raw.getAccountByUserId!(user.id, "github")
      expect(accountFields(found)).toEqual(accountFields(github))
      expect(await t.raw.getAccountByUserId!(user.id, "gitlab")).toBeNull()
      expect(await t.raw.getAccountByUserId!(other.id, "github")).toBeNull()
      expect(await t.raw.getAccountByUserId!(unique(), "github")).toBeNull()
    })

    it("updateAccount changes the named token columns, clears null ones, keeps the rest", async () => {
      if (!has()) return
      const user = await createUser(t.adapter)
      const account = newAccount(user.id)
      await t.adapter.linkAccount(account)
      const key = { provider: account.provider, providerAccountId: account.providerAccountId }
      const updated = await t.raw.updateAccount!({
        ...key,
        access_token: "new-access",
        refresh_token: null,
        expires_at: 4_102_444_800,
      })
      const expected = { ...account, access_token: "new-access", expires_at: 4_102_444_800 }
      delete (expected as { refresh_token?: string }).refresh_token
      expect(accountFields(updated)).toEqual(accountFields(expected))
      const stored = await t.adapter.getAccount(account.providerAccountId, account.provider)
      expect(accountFields(stored)).toEqual(accountFields(expected))
      expect(typeof stored?.expires_at).toBe("number")
    })

    it("updateAccount of an unknown account returns null and creates nothing", async () => {
      if (!has()) return
      const key = { provider: "github", providerAccountId: unique() }
      expect(await t.raw.updateAccount!({ ...key, access_token: "x" })).toBeNull()
      expect(await t.adapter.getAccount(key.providerAccountId, key.provider)).toBeNull()
    })
  })
}
