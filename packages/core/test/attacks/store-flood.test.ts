/**
 * A flood of stranger-chosen keys must not make a used code, state or link work again. The
 * default memory store is bounded; before issue 27 it evicted its oldest keys whatever they
 * were, so 12,000 failed sign-ins with invented addresses pushed out the marker that said a
 * TOTP code was used, and a phished code completed the attacker's pending sign-in. Here, on the
 * default store (no `store` configured), 50,000 failed sign-ins with distinct addresses come
 * between the first use and the replay.
 */

import { beforeAll, describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { totpCode } from "../../src/features/two-factor/totp.js"
import { Auth } from "../../src/index.js"
import { defaultStore } from "../../src/store.js"
import { TwoFactor } from "../../src/two-factor.js"
import type { AuthConfig } from "../../src/types.js"
import { credentialsProvider, req } from "../auth/helpers.js"
import { oidcAppConfig, startSignIn, useOidcServer } from "../oauth/harness/app.js"
import { Browser } from "../oauth/harness/browser.js"
import type { OidcHarness } from "../oauth/harness/oidc-server.js"
import {
  enrollAlice,
  locationOf,
  passwordStep,
  post,
  SESSION,
  withAlice,
} from "../two-factor/helpers.js"

const FLOOD = 50_000
const quiet = { error: () => {}, warn: () => {}, debug: () => {} }

/** A secret of its own: the default store is one per secret, so each test starts it empty. */
const freshSecret = () => `flood-test-secret-${crypto.randomUUID()}`

/** Alice with a password and two-factor sign-in, on the default store of `secret`. */
async function twoFactorApp(secret: string): Promise<AuthConfig> {
  const adapter = MemoryAdapter()
  await withAlice(adapter)
  return {
    secret,
    trustHost: true,
    logger: quiet,
    adapter,
    session: { strategy: "jwt" },
    providers: [credentialsProvider()],
    twoFactor: TwoFactor({ issuer: "Flood Test" }),
  }
}

/**
 * `FLOOD` failed credentials sign-ins, each with an address never seen before, sent without a
 * client IP (no proxy header), so no per-IP limit stops them. Returns the answers' statuses.
 */
async function flood(config: AuthConfig): Promise<Map<number, number>> {
  const statuses = new Map<number, number>()
  const batch = 1_000
  for (let start = 0; start < FLOOD; start += batch) {
    const answers = await Promise.all(
      Array.from({ length: batch }, (_, i) =>
        Auth(
          req("/auth/callback/credentials", {
            form: { username: `stranger-${start + i}@example.net`, password: "guess" },
          }),
          config,
        ),
      ),
    )
    for (const res of answers) statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1)
  }
  return statuses
}

describe("a flood of invented addresses on the default store", () => {
  it("does not make a used TOTP code valid again, and every flood request is answered", async () => {
    const config = await twoFactorApp(freshSecret())
    const { secret } = await enrollAlice(config)
    // The attacker phished the password and waits with a pending sign-in for the next code.
    const { jar: attacker } = await passwordStep(config)
    const { jar: owner } = await passwordStep(config)
    const code = totpCode(secret, Date.now() + 30_000)
    await post(config, "/auth/two-factor/verify", owner, { code })
    expect(owner.get(SESSION)).toBeDefined()

    const statuses = await flood(config)
    // Answered: every one refused as a failed sign-in (a redirect to the sign-in page).
    expect([...statuses.keys()].every((s) => s === 302 || s === 303)).toBe(true)
    expect([...statuses.values()].reduce((a, b) => a + b)).toBe(FLOOD)
    // The counters were bounded (each flood request is one fresh account name: the per-account
    // counters have their own part, of 100,000); the security state was not evicted.
    expect(defaultStore(config.secret as string).size).toBeLessThanOrEqual(FLOOD + 100)

    const replay = await post(config, "/auth/two-factor/verify", attacker, { code })
    expect(locationOf(replay).searchParams.get("error")).toBe("InvalidTwoFactorCode")
    expect(attacker.get(SESSION)).toBeUndefined()
  }, 240_000)
})

describe("a flood between an OAuth callback and its replay", () => {
  const server = useOidcServer()
  let op: OidcHarness
  beforeAll(() => {
    op = server()
  })

  it("the replayed state is still refused", async () => {
    const secret = freshSecret()
    const config = oidcAppConfig(op, secret, {}, { logger: quiet })
    const browser = new Browser()
    const signIn = await startSignIn(config, browser, "/dashboard")
    const back = await op.authorize(signIn.headers.get("location")!)
    const cookies = browser.header()
    const first = await Auth(new Request(back, { headers: { cookie: cookies } }), config)
    expect(first.headers.get("location")).toMatch(/\/dashboard$/)

    // Another provider of the same app (same secret, same default store) takes the flood.
    await flood({
      secret,
      trustHost: true,
      logger: quiet,
      providers: [credentialsProvider()],
    })

    const replay = await Auth(new Request(back, { headers: { cookie: cookies } }), config)
    expect(locationOf(replay).searchParams.get("error")).toBe("InvalidCheck")
  }, 240_000)
})

describe("the protected part of the memory store when full", () => {
  it("refuses a new marker with StoreFull (503 on the page), never evicts a live one", async () => {
    const secret = freshSecret()
    const store = defaultStore(secret)
    const config = await twoFactorApp(secret)
    const { secret: totp } = await enrollAlice(config)
    const { jar: owner } = await passwordStep(config)
    const { jar: late } = await passwordStep(config)
    const code = totpCode(totp, Date.now() + 30_000)
    await post(config, "/auth/two-factor/verify", owner, { code })
    // Fill the protected part up to its bound with markers nobody can evict.
    const filler = Array.from({ length: 100_000 - store.size + 10 }, (_, i) => `filler:${i}`)
    let refused = 0
    for (const key of filler) {
      try {
        store.consumeOnce(key, 60_000)
      } catch (error) {
        expect((error as Error).name).toBe("StoreFull")
        refused++
      }
    }
    expect(refused).toBe(10)
    // A right code cannot be marked used: the sign-in fails closed, with no session.
    const next = await post(config, "/auth/two-factor/verify", late, {
      code: totpCode(totp, Date.now() + 60_000),
    })
    expect(locationOf(next).searchParams.get("error")).toBe("StoreFull")
    expect(late.get(SESSION)).toBeUndefined()
    // The owner's used code is still remembered (nothing was evicted to make room).
    expect(store.consumeOnce("filler:0", 60_000)).toBe(false)
  })
})
