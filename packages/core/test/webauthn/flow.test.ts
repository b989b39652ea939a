/**
 * Passkeys end to end against `Auth()`, with real attestations and assertions from a software
 * authenticator (node:crypto P-256) verified by `@simplewebauthn/server`: registration,
 * sign-in, linking, and every bad input of issue 13 — each refused with a typed error and
 * nothing stored.
 */

import { derIntegers, PasskeyClient, softwareAuthenticator } from "@latchkey/adapter-test/webauthn"
import { isoBase64URL } from "@simplewebauthn/server/helpers"
import { afterEach, describe, expect, it, vi } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { Auth } from "../../src/index.js"
import type { Adapter } from "../../src/kernel/types/adapters.js"
import Passkey from "../../src/providers/passkey.js"
import { MemoryStore } from "../../src/store.js"
import type { AuthConfig } from "../../src/types.js"
import { ORIGIN, recordingLogger, SECRET } from "../auth/helpers.js"

afterEach(() => vi.useRealTimers())

function setup(strategy: "jwt" | "database", extra: Partial<AuthConfig> = {}) {
  const adapter = MemoryAdapter()
  const rec = recordingLogger()
  const config: AuthConfig = {
    providers: [Passkey()],
    adapter,
    secret: SECRET,
    trustHost: true,
    session: { strategy },
    experimental: { enableWebAuthn: true },
    logger: rec.logger,
    // Each setup is its own app: option requests are counted per app, not across tests.
    store: new MemoryStore(),
    ...extra,
  }
  const client = () => new PasskeyClient({ Auth, config, origin: ORIGIN })
  return { adapter, config, client, rec }
}

/** Every authenticator row of the adapter's users (the memory adapter has no "list all"). */
async function authenticatorsOf(adapter: Adapter, email: string) {
  const user = await adapter.getUserByEmail!(email)
  return user ? await adapter.listAuthenticatorsByUserId!(user.id) : []
}

function errorOf(url: string) {
  return new URL(url).searchParams.get("error")
}

function lastError(rec: ReturnType<typeof recordingLogger>) {
  const errors = rec.calls.filter((c) => c.level === "error")
  return errors.at(-1)?.args[0] as { type: string; message: string; details?: { reason?: string } }
}

describe.each(["jwt", "database"] as const)("passkeys, %s sessions", (strategy) => {
  it.each(["none", "packed"] as const)(
    "registers a new user by email (%s attestation), stores the row as Auth.js does, signs in",
    async (attestation) => {
      const { adapter, client } = setup(strategy)
      const browser = client()
      const key = softwareAuthenticator()
      const res = await browser.register(key, { email: "Ann@Example.com" }, { attestation })
      expect(res.url).toBe(`${ORIGIN}/`)
      expect((await browser.session())?.user?.email).toBe("ann@example.com")

      const [row, ...more] = await authenticatorsOf(adapter, "ann@example.com")
      expect(more).toEqual([])
      const standard = Buffer.from(key.credentialId, "base64url").toString("base64")
      expect(row).toMatchObject({
        credentialID: standard,
        providerAccountId: standard,
        counter: 0,
        credentialBackedUp: true,
        credentialDeviceType: "multiDevice",
        transports: "hybrid,internal",
      })
      expect(row!.credentialID).toMatch(/=$/) // 32 bytes: standard base64 keeps its padding
      // The COSE key, base64: a CBOR map whose kty is EC2.
      const cose = isoBase64URL.toBuffer(row!.credentialPublicKey, "base64")
      expect(cose[0]! >> 5).toBe(5)
      const account = await adapter.getAccount!(standard, "passkey")
      expect(account).toMatchObject({
        provider: "passkey",
        type: "webauthn",
        providerAccountId: standard,
      })
    },
  )

  it("signs out, then signs in with the passkey (discoverable, no email); the counter is stored", async () => {
    const { adapter, client } = setup(strategy)
    const key = softwareAuthenticator()
    await client().register(key, { email: "ann@example.com" })
    const later = client()
    const options = await later.options({ action: "authenticate" })
    expect(options.body.options.allowCredentials ?? []).toEqual([])
    const assertion = key.authenticate(options.body.options, { origin: ORIGIN, counter: 7 })
    const res = await later.callback("authenticate", assertion)
    expect(res.url).toBe(`${ORIGIN}/`)
    expect((await later.session())?.user?.email).toBe("ann@example.com")
    expect((await authenticatorsOf(adapter, "ann@example.com"))[0]!.counter).toBe(7)
  })

  it("attack (enumeration): options answer the same for a known and an unknown email", async () => {
    const { client } = setup(strategy)
    const browser = client()
    await browser.register(softwareAuthenticator(), { email: "known@example.com" })
    const probe = client()
    for (const query of [{}, { action: "register" }] as Record<string, string>[]) {
      const known = await probe.options({ ...query, email: "known@example.com" })
      const unknown = await probe.options({ ...query, email: "new@example.com" })
      expect([known.status, known.body.action]).toEqual([200, "register"])
      expect([unknown.status, unknown.body.action]).toEqual([200, "register"])
      expect(Object.keys(known.body.options).sort()).toEqual(
        Object.keys(unknown.body.options).sort(),
      )
    }
    expect((await probe.options()).body.action).toBe("authenticate")
    // Signed in, the action must be given.
    const refused = await browser.options()
    expect(refused.status).toBe(400)
    expect(refused.body.error?.type).toBe("InvalidRequest")
  })

  it("a signed-in user adds a second passkey: linked to them, excluded from re-registration", async () => {
    const { adapter, client } = setup(strategy)
    const browser = client()
    const first = softwareAuthenticator()
    await browser.register(first, { email: "ann@example.com" })
    const options = await browser.options({ action: "register" })
    expect(options.body.options.user.name).toBe("ann@example.com")
    expect(options.body.options.excludeCredentials.map((c: { id: string }) => c.id)).toEqual([
      first.credentialId,
    ])
    const second = softwareAuthenticator()
    const credential = second.register(options.body.options, { origin: ORIGIN })
    expect((await browser.callback("register", credential)).url).toBe(`${ORIGIN}/`)
    expect(await authenticatorsOf(adapter, "ann@example.com")).toHaveLength(2)
    // Re-authentication of a signed-in user lists their credentials.
    const again = await browser.options({ action: "authenticate" })
    expect(again.body.options.allowCredentials).toHaveLength(2)
  })

  it("a user at maxPasskeysPerUser can add no more: refused at the options and at the callback", async () => {
    const { adapter, client } = setup(strategy, { providers: [Passkey({ maxPasskeysPerUser: 2 })] })
    const browser = client()
    await browser.register(softwareAuthenticator(), { email: "ann@example.com" })
    // Options fetched under the limit; another device's registration fills it before they are used.
    const options = await browser.options({ action: "register" })
    const [held] = await authenticatorsOf(adapter, "ann@example.com")
    await adapter.createAuthenticator!({ ...held!, credentialID: "b3RoZXItZGV2aWNl" })
    const late = softwareAuthenticator().register(options.body.options, { origin: ORIGIN })
    expect(errorOf((await browser.callback("register", late)).url)).toBe(
      "WebAuthnVerificationError",
    )
    const refused = await browser.options({ action: "register" })
    expect(refused.status).toBe(400)
    expect(refused.body.error?.message).toContain("already has 2 passkeys")
    expect(await authenticatorsOf(adapter, "ann@example.com")).toHaveLength(2)
  })

  it.each(["r", "s"] as const)(
    "an ECDSA signature whose %s is shorter than 32 bytes verifies",
    async (short) => {
      const { client } = setup(strategy)
      const key = softwareAuthenticator()
      await client().register(
        key,
        { email: "ann@example.com" },
        { attestation: "packed", shortSignature: short },
      )
      const later = client()
      const res = await later.authenticate(key, { shortSignature: short })
      expect(res.url).toBe(`${ORIGIN}/`)
      expect((await later.session())?.user?.email).toBe("ann@example.com")
    },
  )
})

it.each(["r", "s"] as const)(
  "the test authenticator really makes signatures with a short %s",
  (short) => {
    const assertion = softwareAuthenticator().authenticate(
      { challenge: "AAAA", rpId: "app.example.com" },
      { origin: ORIGIN, shortSignature: short },
    )
    const signature = Buffer.from(assertion.response.signature, "base64url")
    expect(derIntegers(signature)[short].length).toBeLessThan(32)
  },
)

describe("passkey bad input: typed error, nothing stored", () => {
  async function registered(strategy: "jwt" | "database" = "jwt", counter = 0) {
    const s = setup(strategy)
    const key = softwareAuthenticator()
    await s.client().register(key, { email: "ann@example.com" }, { counter })
    return { ...s, key }
  }

  async function expectRefused(
    s: Awaited<ReturnType<typeof registered>>,
    res: { status: number; url: string },
    reason: string,
    browser: PasskeyClient<AuthConfig>,
  ) {
    expect(res.status).toBe(200)
    expect(errorOf(res.url)).toBe("WebAuthnVerificationError")
    expect(lastError(s.rec)).toMatchObject({
      type: "WebAuthnVerificationError",
      details: { reason },
    })
    expect(await browser.session()).toBeNull()
    // The challenge cookie is gone whatever the outcome.
    expect(browser.cookies.has("authjs.challenge")).toBe(false)
  }

  it("tampered clientDataJSON", async () => {
    const s = await registered()
    const browser = s.client()
    const res = await browser.authenticate(s.key, {
      tamperClientData: (json) => json.replace('"crossOrigin":false', '"crossOrigin":false,"x":1'),
    })
    await expectRefused(s, res, "verify", browser)
  })

  it("wrong origin in client data", async () => {
    const s = await registered()
    const browser = s.client()
    const res = await browser.authenticate(s.key, { origin: "http://evil.example" })
    await expectRefused(s, res, "verify", browser)
  })

  it("wrong rpID in authenticator data", async () => {
    const s = await registered()
    const browser = s.client()
    const res = await browser.authenticate(s.key, { rpId: "evil.example" })
    await expectRefused(s, res, "verify", browser)
  })

  it("a registration with a wrong origin stores no user, account or authenticator", async () => {
    const s = setup("database")
    const browser = s.client()
    const res = await browser.register(
      softwareAuthenticator(),
      { email: "eve@example.com" },
      {
        origin: "http://evil.example",
      },
    )
    expect(errorOf(res.url)).toBe("WebAuthnVerificationError")
    expect(await s.adapter.getUserByEmail!("eve@example.com")).toBeNull()
  })

  it("a replayed request (same challenge cookie and body) is refused the second time", async () => {
    const s = await registered()
    const browser = s.client()
    const options = await browser.options({ action: "authenticate" })
    const challengeCookie = browser.cookies.get("authjs.challenge")!
    const assertion = s.key.authenticate(options.body.options, { origin: ORIGIN })
    const first = await browser.callback("authenticate", assertion)
    expect(first.url).toBe(`${ORIGIN}/`)
    // An attacker replays the captured request: the synced passkey's counter is still 0.
    const attacker = s.client()
    attacker.cookies.set("authjs.challenge", challengeCookie)
    const replay = await attacker.callback("authenticate", assertion)
    await expectRefused(s, replay, "replayed", attacker)
  })

  it("a replay sent to another instance that shares the store is refused there too", async () => {
    const store = new MemoryStore()
    const s = setup("jwt", { store })
    const key = softwareAuthenticator()
    await s.client().register(key, { email: "ann@example.com" })
    const browser = s.client()
    const options = await browser.options({ action: "authenticate" })
    const challengeCookie = browser.cookies.get("authjs.challenge")!
    const assertion = key.authenticate(options.body.options, { origin: ORIGIN })
    expect((await browser.callback("authenticate", assertion)).url).toBe(`${ORIGIN}/`)
    // Another instance: its own config object (resolved separately), the same store.
    const other = new PasskeyClient({ Auth, config: { ...s.config }, origin: ORIGIN })
    other.cookies.set("authjs.challenge", challengeCookie)
    const replay = await other.callback("authenticate", assertion)
    expect(errorOf(replay.url)).toBe("WebAuthnVerificationError")
    expect(lastError(s.rec)).toMatchObject({ details: { reason: "replayed" } })
    expect(await other.session()).toBeNull()
  })

  it("a store that cannot answer refuses the passkey (fail closed)", async () => {
    const store = new MemoryStore()
    const s = setup("jwt", { store })
    const key = softwareAuthenticator()
    await s.client().register(key, { email: "ann@example.com" })
    store.consumeOnce = () => {
      throw new Error("store down")
    }
    const browser = s.client()
    const res = await browser.authenticate(key)
    expect(errorOf(res.url)).toBe("WebAuthnVerificationError")
    expect(lastError(s.rec)).toMatchObject({ details: { reason: "store-unavailable" } })
    expect(await browser.session()).toBeNull()
  })

  it("an expired challenge (older than 5 minutes)", async () => {
    const s = await registered()
    const browser = s.client()
    const options = await browser.options({ action: "authenticate" })
    const sent = browser.cookies.get("authjs.challenge")
    expect(sent).toBeDefined()
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(Date.now() + 5 * 60_000 + 20_000)
    const res = await browser.callback(
      "authenticate",
      s.key.authenticate(options.body.options, { origin: ORIGIN }),
    )
    await expectRefused(s, res, "invalid", browser)
  })

  it("a challenge issued for register is refused for authenticate, and one for another provider", async () => {
    const s = setup("jwt", {
      providers: [Passkey(), Passkey({ id: "other-passkey" })],
    })
    const key = softwareAuthenticator()
    await s.client().register(key, { email: "ann@example.com" })
    const browser = s.client()
    const options = await browser.options({ action: "register", email: "bob@example.com" })
    const assertion = key.authenticate(
      { challenge: options.body.options.challenge },
      { origin: ORIGIN },
    )
    const res = await browser.callback("authenticate", assertion)
    expect(errorOf(res.url)).toBe("WebAuthnVerificationError")
    expect(lastError(s.rec).details?.reason).toBe("action")

    const other = new PasskeyClient({
      Auth,
      config: s.config,
      origin: ORIGIN,
      providerId: "other-passkey",
    })
    const otherOptions = await other.options({ action: "authenticate" })
    const cross = await browser.callback(
      "authenticate",
      key.authenticate(otherOptions.body.options, { origin: ORIGIN }),
      { cookie: `authjs.challenge=${encodeURIComponent(other.cookies.get("authjs.challenge")!)}` },
    )
    expect(errorOf(cross.url)).toBe("WebAuthnVerificationError")
  })

  it("an unknown credential id", async () => {
    const s = await registered()
    const browser = s.client()
    const res = await browser.authenticate(softwareAuthenticator())
    await expectRefused(s, res, "unknown-credential", browser)
  })

  it("a signature counter that goes backwards; the stored counter is unchanged", async () => {
    const s = await registered("jwt", 10)
    const browser = s.client()
    const res = await browser.authenticate(s.key, { counter: 9 })
    await expectRefused(s, res, "verify", browser)
    expect((await authenticatorsOf(s.adapter, "ann@example.com"))[0]!.counter).toBe(10)
  })

  it.each(["jwt", "database"] as const)(
    "an assertion of another user's passkey while signed in (%s): AccountNotLinked, session kept",
    async (strategy) => {
      const s = await registered(strategy)
      const bob = s.client()
      await bob.register(softwareAuthenticator(), { email: "bob@example.com" })
      const before = bob.cookieHeader()
      const res = await bob.authenticate(s.key, { counter: 3 })
      expect(errorOf(res.url)).toBe("AccountNotLinked")
      expect((await bob.session())?.user?.email).toBe("bob@example.com")
      expect(before).toContain("session-token")
      // Nothing stored: Ann's counter did not move.
      expect((await authenticatorsOf(s.adapter, "ann@example.com"))[0]!.counter).toBe(0)
    },
  )

  it("registering an email that already has an account, signed out: refused at the callback, nothing stored", async () => {
    const s = await registered()
    const browser = s.client()
    const res = await browser.register(softwareAuthenticator(), { email: "ann@example.com" })
    expect(errorOf(res.url)).toBe("AccountNotLinked")
    expect(await browser.session()).toBeNull()
    expect(await authenticatorsOf(s.adapter, "ann@example.com")).toHaveLength(1)
  })

  it("the same credential registered twice is refused", async () => {
    const s = await registered()
    const browser = s.client()
    const res = await browser.register(s.key, { email: "other@example.com" })
    expect(errorOf(res.url)).toBe("WebAuthnVerificationError")
    expect(await s.adapter.getUserByEmail!("other@example.com")).toBeNull()
  })

  it("malformed requests: bad action, data that is not a credential, oversized body", async () => {
    const s = await registered()
    const browser = s.client()
    expect((await browser.options({ action: "delete" })).status).toBe(400)
    expect((await browser.options({ action: "register", email: "not an email" })).status).toBe(400)
    await browser.options({ action: "authenticate" })
    const badAction = await browser.callback("steal", { id: "x", response: {} })
    expect(badAction.status).toBe(400)
    expect(badAction.body.error?.type).toBe("InvalidRequest")
    const notJson = await browser.callback("authenticate", "{not json")
    expect(notJson.status).toBe(400)
    const big = await browser.callback("authenticate", { id: "a".repeat(70_000), response: {} })
    expect(big.status).toBe(400)
    expect(big.body.error?.type).toBe("InvalidRequest")
  })

  it("a malformed credential id is refused before any lookup", async () => {
    const s = await registered()
    const browser = s.client()
    const options = await browser.options({ action: "authenticate" })
    const assertion = s.key.authenticate(options.body.options, { origin: ORIGIN })
    const res = await browser.callback("authenticate", { ...assertion, id: "not+base64url/" })
    await expectRefused(s, res, "malformed-id", browser)
  })

  it("a cross-site POST to the callback is refused (CSRF stays on)", async () => {
    const s = await registered()
    const browser = s.client()
    const options = await browser.options({ action: "authenticate" })
    const res = await browser.callback(
      "authenticate",
      s.key.authenticate(options.body.options, { origin: ORIGIN }),
      { "sec-fetch-site": "cross-site" },
    )
    expect(res.status).toBe(403)
    expect(await browser.session()).toBeNull()
  })

  it("user verification is required by default: options ask for it, UV=false is refused", async () => {
    const s = await registered()
    const browser = s.client()
    const options = await browser.options({ action: "authenticate" })
    expect(options.body.options.userVerification).toBe("required")
    const res = await browser.authenticate(s.key, { userVerified: false })
    await expectRefused(s, res, "verify", browser)
    expect(lastError(s.rec).message).toMatch(/user could not be verified/i)

    const fresh = setup("jwt")
    const signup = await fresh.client().register(
      softwareAuthenticator(),
      { email: "bo@example.com" },
      {
        userVerified: false,
      },
    )
    expect(errorOf(signup.url)).toBe("WebAuthnVerificationError")
    expect(await fresh.adapter.getUserByEmail!("bo@example.com")).toBeNull()
  })

  it('userVerification "preferred": a response without the UV flag is accepted', async () => {
    const s = setup("jwt", { providers: [Passkey({ userVerification: "preferred" })] })
    const key = softwareAuthenticator()
    const signup = s.client()
    await signup.register(key, { email: "ann@example.com" }, { userVerified: false })
    expect((await signup.session())?.user?.email).toBe("ann@example.com")
    const browser = s.client()
    const options = await browser.options({ action: "authenticate" })
    expect(options.body.options.userVerification).toBe("preferred")
    const res = await browser.authenticate(key, { userVerified: false })
    expect(errorOf(res.url)).toBeNull()
    expect((await browser.session())?.user?.email).toBe("ann@example.com")
  })

  it("no log line carries the challenge or the challenge cookie", async () => {
    const s = await registered()
    const browser = s.client()
    const options = await browser.options({ action: "authenticate" })
    const cookie = browser.cookies.get("authjs.challenge")!
    await browser.callback(
      "authenticate",
      s.key.authenticate(options.body.options, { origin: ORIGIN, challenge: "AAAA" }),
    )
    const logged = JSON.stringify(
      s.rec.calls.map((c) => c.args.map((a) => (a instanceof Error ? `${a.message}` : a))),
    )
    expect(logged).toContain("did not verify")
    expect(logged).not.toContain(options.body.options.challenge)
    expect(logged).not.toContain(cookie)
  })
})
