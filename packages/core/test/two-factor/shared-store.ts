/**
 * Two `Auth()` instances (two configs, as two processes have) sharing one database and one
 * store: a code accepted by one is refused by the other, the attempt limit counts across both,
 * and a pending cookie spent at one does not open at the other.
 */
import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { totpCode } from "../../src/features/two-factor/totp.js"
import type { Store } from "../../src/store.js"
import { Jar } from "../auth/helpers.js"
import {
  enrollAlice,
  locationOf,
  PENDING,
  passwordStep,
  post,
  SESSION,
  twoFactorConfig,
  withAlice,
} from "./helpers.js"

export function sharedStoreScenarios(name: string, makeStore: () => Store | Promise<Store>) {
  describe(`two-factor across two instances: ${name}`, () => {
    async function twoInstances() {
      const store = await makeStore()
      const adapter = MemoryAdapter()
      await withAlice(adapter)
      const a = twoFactorConfig("jwt", { adapter, store }).config
      const b = twoFactorConfig("jwt", { adapter, store }).config
      const { secret } = await enrollAlice(a)
      return { a, b, secret }
    }

    it("a code accepted by one instance is refused by the other in its step", async () => {
      const { a, b, secret } = await twoInstances()
      const code = totpCode(secret, Date.now() + 30_000)
      const { jar: first } = await passwordStep(a)
      const { jar: second } = await passwordStep(b)
      await post(a, "/auth/two-factor/verify", first, { code })
      expect(first.get(SESSION)).toBeDefined()
      const replay = await post(b, "/auth/two-factor/verify", second, { code })
      expect(locationOf(replay).searchParams.get("error")).toBe("InvalidTwoFactorCode")
      expect(second.get(SESSION)).toBeUndefined()
    })

    it("a pending cookie spent at one instance does not open at the other", async () => {
      const { a, b, secret } = await twoInstances()
      const { jar } = await passwordStep(a)
      const copy = new Jar()
      copy.cookies.set(PENDING, jar.get(PENDING)!)
      await post(a, "/auth/two-factor/verify", jar, { code: totpCode(secret, Date.now() + 30_000) })
      expect(jar.get(SESSION)).toBeDefined()
      const res = await post(b, "/auth/two-factor/verify", copy, {
        code: totpCode(secret, Date.now() - 30_000),
      })
      expect(locationOf(res).pathname).toBe("/auth/signin")
      expect(copy.get(SESSION)).toBeUndefined()
    })

    it("the attempt limit is shared: 5 guesses at each, then the right code is refused at both", async () => {
      const { a, b, secret } = await twoInstances()
      const right = totpCode(secret, Date.now() + 30_000)
      const wrong = right === "123456" ? "654321" : "123456"
      const { jar } = await passwordStep(a)
      for (const config of [a, b, a, b, a, b, a, b, a, b]) {
        await post(config, "/auth/two-factor/verify", jar, { code: wrong })
      }
      const res = await post(b, "/auth/two-factor/verify", jar, { code: right })
      expect(locationOf(res).searchParams.get("error")).toBe("RateLimited")
      expect(jar.get(SESSION)).toBeUndefined()
    })
  })
}
