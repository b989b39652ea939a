import { type Adapter, accountApiAdapterMethods } from "@latchkey/core/adapters"
import { describe, expect, it } from "vitest"
import { type ContractContext, createUser, dateWithMs, newAccount, newSession } from "./context.js"

type AccountApiAdapter = Required<
  Pick<
    Adapter,
    | (typeof accountApiAdapterMethods)[number]
    | "createAuthenticator"
    | "getAuthenticator"
    | "updateAuthenticatorCounter"
  >
>

const inOneHour = () => new Date(Date.now() + 3_600_000)

function passkey(userId: string, providerAccountId: string) {
  return {
    credentialID: crypto.randomUUID(),
    userId,
    providerAccountId,
    counter: 0,
    credentialBackedUp: false,
    credentialPublicKey: "pQECAyYgASFYIA",
    credentialDeviceType: "singleDevice",
    transports: null,
  }
}

/**
 * The account API's optional methods: sessions by public id, accounts and passkeys of one
 * user. Every change names the user, and a change to another user's item is `false` with
 * nothing changed. Skipped for adapters without them.
 */
export function accountApiTests(t: ContractContext) {
  describe("account API (optional)", () => {
    const methods = (ctx: { skip: () => void }): AccountApiAdapter => {
      const adapter = t.raw
      if (!accountApiAdapterMethods.every((name) => typeof adapter[name] === "function")) {
        ctx.skip()
      }
      return adapter as AccountApiAdapter
    }

    it("createSession keeps the extra fields; the session gets a public id", async (ctx) => {
      const a = methods(ctx)
      const user = await createUser(t.adapter)
      const authTime = dateWithMs()
      const created = await t.adapter.createSession(
        newSession(user.id, {
          expires: inOneHour(),
          id: crypto.randomUUID(),
          createdAt: authTime,
          lastSeenAt: authTime,
          authTime,
          amr: ["pwd", "otp"],
          userAgent: "Firefox on Linux",
        }),
      )
      const plain = await t.adapter.createSession(newSession(user.id, { expires: inOneHour() }))
      const listed = await a.listSessionsByUserId(user.id)
      expect(listed.map((s) => s.id).sort()).toEqual([created.id, plain.id].sort())
      expect(typeof plain.id).toBe("string")
      const found = (await t.adapter.getSessionAndUser(created.sessionToken))?.session
      expect(found).toMatchObject({
        id: created.id,
        userAgent: "Firefox on Linux",
        amr: ["pwd", "otp"],
      })
      expect(found?.authTime?.getTime()).toBe(authTime.getTime())
    })

    it("listSessionsByUserId: the user's unexpired sessions only", async (ctx) => {
      const a = methods(ctx)
      const user = await createUser(t.adapter)
      const other = await createUser(t.adapter)
      const live = await t.adapter.createSession(newSession(user.id, { expires: inOneHour() }))
      await t.adapter.createSession(newSession(user.id, { expires: new Date(Date.now() - 60_000) }))
      await t.adapter.createSession(newSession(other.id, { expires: inOneHour() }))
      const listed = await a.listSessionsByUserId(user.id)
      expect(listed.map((s) => s.id)).toEqual([live.id])
      expect(JSON.stringify(listed)).not.toContain(live.sessionToken)
    })

    it("updateSession keeps lastSeenAt", async (ctx) => {
      methods(ctx)
      const user = await createUser(t.adapter)
      const s = await t.adapter.createSession(newSession(user.id, { expires: inOneHour() }))
      const seen = dateWithMs(5)
      await t.adapter.updateSession({ sessionToken: s.sessionToken, lastSeenAt: seen })
      const found = (await t.adapter.getSessionAndUser(s.sessionToken))?.session
      expect(found?.lastSeenAt?.getTime()).toBe(seen.getTime())
    })

    it("deleteSessionById: only the named user's session; another user's id is false", async (ctx) => {
      const a = methods(ctx)
      const alice = await createUser(t.adapter)
      const bob = await createUser(t.adapter)
      const mine = await t.adapter.createSession(newSession(alice.id, { expires: inOneHour() }))
      const bobs = await t.adapter.createSession(newSession(bob.id, { expires: inOneHour() }))
      expect(await a.deleteSessionById(alice.id, bobs.id!)).toBe(false)
      expect(await t.adapter.getSessionAndUser(bobs.sessionToken)).not.toBeNull()
      expect(await a.deleteSessionById(alice.id, mine.id!)).toBe(true)
      expect(await t.adapter.getSessionAndUser(mine.sessionToken)).toBeNull()
      expect(await a.deleteSessionById(alice.id, mine.id!)).toBe(false)
    })

    it("listAccountsByUserId lists the user's accounts only", async (ctx) => {
      const a = methods(ctx)
      const user = await createUser(t.adapter)
      const other = await createUser(t.adapter)
      const first = newAccount(user.id)
      const second = newAccount(user.id, { provider: "google", type: "oidc" })
      await t.adapter.linkAccount(first)
      await t.adapter.linkAccount(second)
      await t.adapter.linkAccount(newAccount(other.id))
      const listed = await a.listAccountsByUserId(user.id)
      expect(listed.map((x) => `${x.provider}:${x.providerAccountId}`).sort()).toEqual(
        [first, second].map((x) => `${x.provider}:${x.providerAccountId}`).sort(),
      )
      expect(listed.every((x) => x.userId === user.id)).toBe(true)
    })

    it("renameAuthenticator / deleteAuthenticator: the owner only", async (ctx) => {
      const a = methods(ctx)
      const alice = await createUser(t.adapter)
      const bob = await createUser(t.adapter)
      const account = newAccount(bob.id, { type: "webauthn", provider: "passkey" })
      await t.adapter.linkAccount(account)
      const key = passkey(bob.id, account.providerAccountId)
      const created = await a.createAuthenticator(key)
      expect(created.createdAt).toBeInstanceOf(Date)
      expect(await a.renameAuthenticator(alice.id, key.credentialID, "mine now")).toBe(false)
      expect(await a.deleteAuthenticator(alice.id, key.credentialID)).toBe(false)
      expect((await a.getAuthenticator(key.credentialID))?.name ?? null).toBeNull()
      expect(await a.renameAuthenticator(bob.id, key.credentialID, "Work laptop")).toBe(true)
      expect((await a.getAuthenticator(key.credentialID))?.name).toBe("Work laptop")
      await a.updateAuthenticatorCounter(key.credentialID, 1)
      expect((await a.getAuthenticator(key.credentialID))?.lastUsedAt).toBeInstanceOf(Date)
      expect(await a.deleteAuthenticator(bob.id, key.credentialID)).toBe(true)
      expect(await a.getAuthenticator(key.credentialID)).toBeNull()
      expect(await a.deleteAuthenticator(bob.id, key.credentialID)).toBe(false)
    })
  })
}
