import { describe, expect, it } from "vitest"
import { type ContractContext, newVerificationToken, unique } from "./context.js"

export function verificationTokenTests(t: ContractContext) {
  describe("verification tokens", () => {
    it("useVerificationToken returns the token once, then null", async () => {
      const token = newVerificationToken()
      const created = await t.adapter.createVerificationToken(token)
      if (created) expect(created).toEqual(token)
      const key = { identifier: token.identifier, token: token.token }
      expect(await t.adapter.useVerificationToken(key)).toEqual(token)
      expect(await t.adapter.useVerificationToken(key)).toBeNull()
    })

    it("a token used with the wrong identifier is null and stays usable for the right one", async () => {
      const token = newVerificationToken()
      await t.adapter.createVerificationToken(token)
      expect(
        await t.adapter.useVerificationToken({
          identifier: `${unique()}@example.com`,
          token: token.token,
        }),
      ).toBeNull()
      expect(
        await t.adapter.useVerificationToken({ identifier: token.identifier, token: unique() }),
      ).toBeNull()
      expect(
        await t.adapter.useVerificationToken({ identifier: token.identifier, token: token.token }),
      ).toEqual(token)
    })

    it("useVerificationToken of an unknown token is null", async () => {
      const { identifier, token } = newVerificationToken()
      expect(await t.adapter.useVerificationToken({ identifier, token })).toBeNull()
    })

    it("one identifier may have several pending tokens, each used on its own", async () => {
      const first = newVerificationToken()
      const second = newVerificationToken({ identifier: first.identifier })
      await t.adapter.createVerificationToken(first)
      await t.adapter.createVerificationToken(second)
      expect(await t.adapter.useVerificationToken(second)).toEqual(second)
      expect(await t.adapter.useVerificationToken(first)).toEqual(first)
    })

    it("an expired token is still returned with its exact expiry (expiry is the core's job)", async () => {
      const token = newVerificationToken({ expires: new Date(Date.now() - 11 * 60_000 + 3) })
      await t.adapter.createVerificationToken(token)
      expect(await t.adapter.useVerificationToken(token)).toEqual(token)
    })
  })
}
