/**
 * A passkey sign-in with user verification is multi-factor by itself: a user with a second
 * factor signs in without a code, and the session's `amr` says so. Without the UV flag (a
 * provider that accepts possession alone) the code is still asked for.
 */

import { PasskeyClient, softwareAuthenticator } from "@latchkey/adapter-test/webauthn"
import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { Auth } from "../../src/index.js"
import { decode } from "../../src/kernel/token/jwt.js"
import Passkey from "../../src/providers/passkey.js"
import { MemoryStore } from "../../src/store.js"
import { TwoFactor } from "../../src/two-factor.js"
import type { AuthConfig } from "../../src/types.js"
import { ORIGIN, SECRET } from "../auth/helpers.js"

function setup(userVerification: "required" | "preferred") {
  const adapter = MemoryAdapter()
  const config: AuthConfig = {
    providers: [Passkey({ userVerification })],
    adapter,
    secret: SECRET,
    trustHost: true,
    session: { strategy: "jwt" },
    experimental: { enableWebAuthn: true },
    logger: { error: () => {}, warn: () => {}, debug: () => {} },
    store: new MemoryStore(),
    twoFactor: TwoFactor({ issuer: "Test" }),
  }
  return { adapter, config, client: () => new PasskeyClient({ Auth, config, origin: ORIGIN }) }
}

async function withSecondFactor(adapter: ReturnType<typeof MemoryAdapter>, email: string) {
  const user = await adapter.getUserByEmail!(email)
  await adapter.setTwoFactor!({ userId: user!.id, secret: "lk2fa1.x", enabledAt: new Date() })
}

describe("passkeys and the second factor", () => {
  it("with user verification: signed in at once, amr hwk+user+mfa", async () => {
    const { adapter, client } = setup("required")
    const key = softwareAuthenticator()
    await client().register(key, { email: "ann@example.com" })
    await withSecondFactor(adapter, "ann@example.com")
    const browser = client()
    const options = await browser.options({ action: "authenticate" })
    const res = await browser.callback(
      "authenticate",
      key.authenticate(options.body.options, { origin: ORIGIN, counter: 1 }),
    )
    expect(res.url).toBe(`${ORIGIN}/`)
    expect((await browser.session())?.user?.email).toBe("ann@example.com")
    const token = await decode({
      token: browser.cookies.get("authjs.session-token")!,
      secret: SECRET,
      salt: "authjs.session-token",
    })
    expect(token?.amr).toEqual(["hwk", "user", "mfa"])
  })

  it("without the UV flag: the code is asked for, no session yet", async () => {
    const { adapter, client } = setup("preferred")
    const key = softwareAuthenticator()
    await client().register(key, { email: "ann@example.com" })
    await withSecondFactor(adapter, "ann@example.com")
    const browser = client()
    const options = await browser.options({ action: "authenticate" })
    const res = await browser.callback(
      "authenticate",
      key.authenticate(options.body.options, { origin: ORIGIN, counter: 1, userVerified: false }),
    )
    expect(new URL(res.url).pathname).toBe("/auth/two-factor")
    expect(await browser.session()).toBeNull()
    expect(browser.cookies.has("latchkey.two-factor")).toBe(true)
  })
})
