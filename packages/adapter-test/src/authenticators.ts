import type { Adapter, AdapterAuthenticator } from "@latchkey/core/adapters"
import { describe, expect, it } from "vitest"
import {
  type ContractContext,
  createUser,
  authenticatorFields as f,
  newAccount,
  unique,
} from "./context.js"

type AuthenticatorAdapter = Required<
  Pick<
    Adapter,
    | "createAuthenticator"
    | "getAuthenticator"
    | "listAuthenticatorsByUserId"
    | "updateAuthenticatorCounter"
  >
>

function authenticatorMethods(adapter: Adapter): AuthenticatorAdapter | null {
  const {
    createAuthenticator,
    getAuthenticator,
    listAuthenticatorsByUserId,
    updateAuthenticatorCounter,
  } = adapter
  if (
    !createAuthenticator ||
    !getAuthenticator ||
    !listAuthenticatorsByUserId ||
    !updateAuthenticatorCounter
  ) {
    return null
  }
  return adapter as AuthenticatorAdapter
}

function newAuthenticator(
  userId: string,
  providerAccountId: string,
  overrides: Partial<AdapterAuthenticator> = {},
): AdapterAuthenticator {
  return {
    credentialID: Buffer.from(unique()).toString("base64url"),
    userId,
    providerAccountId,
    counter: 0,
    credentialBackedUp: true,
    credentialPublicKey: Buffer.from(crypto.getRandomValues(new Uint8Array(77))).toString("base64"),
    credentialDeviceType: "multiDevice",
    transports: "internal,hybrid",
    ...overrides,
  }
}

export function authenticatorTests(t: ContractContext) {
  describe("authenticators (WebAuthn)", () => {
    // Skips when the adapter (or the capability flag) says it has no authenticator storage.
    const methods = (ctx: { skip: () => void }): AuthenticatorAdapter => {
      const found = t.capabilities.authenticators === false ? null : authenticatorMethods(t.raw)
      if (!found) {
        if (t.capabilities.authenticators === true) throw new Error("authenticator methods missing")
        ctx.skip()
      }
      return found as AuthenticatorAdapter
    }

    async function userWithPasskeyAccount() {
      const user = await createUser(t.adapter)
      const account = newAccount(user.id, { type: "webauthn", provider: "webauthn" })
      await t.adapter.linkAccount(account)
      return { user, account }
    }

    it("createAuthenticator stores it; getAuthenticator reads it back", async (ctx) => {
      const a = methods(ctx)
      const { user, account } = await userWithPasskeyAccount()
      const input = newAuthenticator(user.id, account.providerAccountId)
      expect(f(await a.createAuthenticator(input))).toEqual(input)
      expect(f(await a.getAuthenticator(input.credentialID))).toEqual(input)
      expect(await a.getAuthenticator(unique())).toBeNull()
    })

    it("an id as Auth.js stores it (standard base64: +, / and padding) is kept exactly", async (ctx) => {
      const a = methods(ctx)
      const { user, account } = await userWithPasskeyAccount()
      // 0xfb 0xff 0xbf… encodes to "+/+/…": the characters base64url would change.
      const bytes = Uint8Array.from({ length: 31 }, (_, i) => (i % 2 ? 0xff : 0xfb))
      const credentialID = Buffer.from(bytes).toString("base64")
      expect(credentialID).toMatch(/[+/].*=$/)
      const input = newAuthenticator(user.id, account.providerAccountId, { credentialID })
      await a.createAuthenticator(input)
      expect(f(await a.getAuthenticator(credentialID))).toEqual(input)
      expect(await a.getAuthenticator(Buffer.from(bytes).toString("base64url"))).toBeNull()
    })

    it("transports may be null", async (ctx) => {
      const a = methods(ctx)
      const { user, account } = await userWithPasskeyAccount()
      const input = newAuthenticator(user.id, account.providerAccountId, {
        transports: null,
        credentialBackedUp: false,
        credentialDeviceType: "singleDevice",
      })
      await a.createAuthenticator(input)
      const stored = await a.getAuthenticator(input.credentialID)
      expect(f({ ...stored, transports: stored?.transports ?? null })).toEqual(input)
    })

    it("listAuthenticatorsByUserId lists the user's credentials only", async (ctx) => {
      const a = methods(ctx)
      const { user, account } = await userWithPasskeyAccount()
      const other = await userWithPasskeyAccount()
      const first = newAuthenticator(user.id, account.providerAccountId)
      const second = newAuthenticator(user.id, account.providerAccountId)
      await a.createAuthenticator(first)
      await a.createAuthenticator(second)
      await a.createAuthenticator(newAuthenticator(other.user.id, other.account.providerAccountId))
      const listed = await a.listAuthenticatorsByUserId(user.id)
      const byId = (x: AdapterAuthenticator, y: AdapterAuthenticator) =>
        x.credentialID.localeCompare(y.credentialID)
      expect([...listed].map(f).sort(byId)).toEqual([first, second].sort(byId))
      expect(await a.listAuthenticatorsByUserId("2147483000")).toEqual([])
    })

    it("updateAuthenticatorCounter stores the new counter (up to 2^32 - 1)", async (ctx) => {
      const a = methods(ctx)
      const { user, account } = await userWithPasskeyAccount()
      const input = newAuthenticator(user.id, account.providerAccountId)
      await a.createAuthenticator(input)
      const max = 2 ** 32 - 1
      expect(f(await a.updateAuthenticatorCounter(input.credentialID, max))).toEqual({
        ...input,
        counter: max,
      })
      expect((await a.getAuthenticator(input.credentialID))?.counter).toBe(max)
    })

    it("updateAuthenticatorCounter of an unknown credential rejects", async (ctx) => {
      const a = methods(ctx)
      await expect(
        Promise.resolve().then(() => a.updateAuthenticatorCounter(unique(), 1)),
      ).rejects.toThrow()
    })

    it("deleteUser removes the user's authenticators", async (ctx) => {
      const a = methods(ctx)
      const { user, account } = await userWithPasskeyAccount()
      const input = newAuthenticator(user.id, account.providerAccountId)
      await a.createAuthenticator(input)
      await t.adapter.deleteUser(user.id)
      expect(await a.getAuthenticator(input.credentialID)).toBeNull()
      expect(await a.listAuthenticatorsByUserId(user.id)).toEqual([])
    })
  })
}
