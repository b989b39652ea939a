/**
 * The account API is a feature (issue 43): an app carries and serves it only when something in
 * its configuration brings it — `account: Account()`, or the providers and options whose
 * changes are account changes (Passkey(), Password(), TwoFactor()), or withAccountApi (what the
 * Qwik bindings call).
 */
import { describe, expect, it } from "vitest"
import { Account, withAccountApi } from "../../src/account.js"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { Auth } from "../../src/index.js"
import { withPlainProviders } from "../../src/plain-providers.js"
import GitHub from "../../src/providers/github.js"
import Passkey from "../../src/providers/passkey.js"
import { TwoFactor } from "../../src/two-factor.js"
import type { AuthConfig } from "../../src/types.js"
import { Jar, makeConfig, req, signInWithCredentials } from "../auth/helpers.js"

const github = () => GitHub({ clientId: "id", clientSecret: "secret" })

/** A signed-out `GET /auth/account`: the API's own refusal when served, an unknown action if not. */
async function accountStatus(config: AuthConfig) {
  const res = await Auth(req("/auth/account"), config)
  const body = (await res.json()) as { error?: string | { type: string; message: string } }
  const error = typeof body.error === "object" ? body.error : { type: body.error, message: "" }
  return { status: res.status, body: { error: error.type, message: error.message } }
}

describe("the account API is a feature", () => {
  it("is not served to an app that configures nothing that brings it, and the answer says what does", async () => {
    const { status, body } = await accountStatus(makeConfig({ providers: [github()] }))
    expect(status).toBe(400)
    expect(body.error).toBe("UnknownAction")
    expect(body.message).toContain("Account()")
  })

  it("is served with account: Account(), and its options are kept", async () => {
    const hasCredentials = async () => true
    const account = Account({ hasCredentials })
    expect(account.hasCredentials).toBe(hasCredentials)
    const { status, body } = await accountStatus(makeConfig({ providers: [github()], account }))
    // Served: a signed-out read is the API's own refusal, not an unknown action.
    expect(status).toBe(401)
    expect(body.error).toBe("SessionRequired")
  })

  it("comes with Passkey() and TwoFactor()", async () => {
    const adapter = MemoryAdapter()
    for (const config of [
      makeConfig({
        adapter,
        providers: [github(), Passkey()],
        experimental: { enableWebAuthn: true },
      }),
      makeConfig({ adapter, providers: [github()], twoFactor: TwoFactor({ issuer: "Test" }) }),
    ]) {
      expect((await accountStatus(config)).body.error).toBe("SessionRequired")
    }
  })

  it("comes with withAccountApi (the Qwik bindings), which keeps plain account options and the config's identity", async () => {
    const hasCredentials = async () => false
    const plain = makeConfig({ providers: [github()], account: { hasCredentials } })
    const config = withAccountApi(plain)
    expect(withAccountApi(plain)).toBe(config)
    expect(withAccountApi(config)).toBe(config)
    expect(config.account?.hasCredentials).toBe(hasCredentials)
    expect((await accountStatus(config)).body.error).toBe("SessionRequired")
    // The plain config itself still has no account API.
    expect((await accountStatus(plain)).body.error).toBe("UnknownAction")
  })

  it("comes with a plain Auth.js-style WebAuthn provider through withPlainProviders", async () => {
    const config = await withPlainProviders(
      makeConfig({
        adapter: MemoryAdapter(),
        providers: [github(), { ...Passkey(), [Symbol.for("latchkey.feature")]: undefined }],
        experimental: { enableWebAuthn: true },
      }),
    )
    expect((await accountStatus(config)).body.error).toBe("SessionRequired")
  })

  it("a signed-in user of an app with Account() reads their account", async () => {
    const config = makeConfig({ account: Account() })
    const { jar } = await signInWithCredentials(Auth, config, new Jar())
    const res = await Auth(req("/auth/account", { jar }), config)
    expect(res.status).toBe(200)
  })
})
