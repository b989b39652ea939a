/** A passkey provider needs `experimental.enableWebAuthn` and an adapter with the passkey methods. */

import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { Auth } from "../../src/index.js"
import type { Adapter } from "../../src/kernel/types/adapters.js"
import Credentials from "../../src/providers/credentials.js"
import Passkey from "../../src/providers/passkey.js"
import WebAuthn from "../../src/providers/webauthn.js"
import type { AuthConfig } from "../../src/types.js"
import { recordingLogger, req, SECRET } from "../auth/helpers.js"

async function problems(config: Partial<AuthConfig>) {
  const rec = recordingLogger()
  const res = await Auth(req("/auth/providers"), {
    providers: [Passkey()],
    secret: SECRET,
    trustHost: true,
    logger: rec.logger,
    ...config,
  })
  const error = rec.calls.find((c) => c.level === "error")?.args[0] as
    | { type: string; problems: { type: string; message: string }[] }
    | undefined
  return { status: res.status, error }
}

describe("passkey configuration", () => {
  it("is valid with the flag and the in-memory adapter", async () => {
    const { status, error } = await problems({
      adapter: MemoryAdapter(),
      experimental: { enableWebAuthn: true },
    })
    expect(status).toBe(200)
    expect(error).toBeUndefined()
  })

  it("without experimental.enableWebAuthn: InvalidConfiguration naming the flag", async () => {
    const { status, error } = await problems({ adapter: MemoryAdapter() })
    expect(status).toBe(500)
    expect(error?.type).toBe("InvalidConfiguration")
    expect(error?.problems.map((p) => p.type)).toEqual(["ExperimentalFeatureNotEnabled"])
    expect(error?.problems[0]?.message).toContain("experimental.enableWebAuthn")
  })

  it("without an adapter: InvalidConfiguration naming the adapter and its methods", async () => {
    const { error } = await problems({ experimental: { enableWebAuthn: true } })
    expect(error?.problems.map((p) => p.type)).toEqual(["MissingAdapter"])
    expect(error?.problems[0]?.message).toMatch(
      /getAuthenticator.*updateAuthenticatorCounter.*getAccount/s,
    )
  })

  it("with an adapter lacking the authenticator methods: each missing one is named", async () => {
    const {
      getAuthenticator: _g,
      updateAuthenticatorCounter: _u,
      getAccount: _a,
      ...rest
    } = MemoryAdapter()
    const { error } = await problems({
      adapter: rest as Adapter,
      experimental: { enableWebAuthn: true },
    })
    expect(error?.problems.map((p) => p.type)).toEqual(["MissingAdapterMethods"])
    expect(error?.problems[0]?.message).toBe(
      "The adapter lacks: getAccount, getAuthenticator, updateAuthenticatorCounter",
    )
  })

  it("provider defaults: passkey and webauthn ids, user verification required, 5-minute timeout", () => {
    expect(Passkey()).toMatchObject({ id: "passkey", name: "Passkey", type: "webauthn" })
    expect(WebAuthn()).toMatchObject({
      id: "webauthn",
      type: "webauthn",
      userVerification: "required",
      timeout: 300_000,
      enableConditionalUI: true,
    })
    expect(Passkey({ id: "mine" }).id).toBe("mine")
  })

  it("webauthn-options of a provider that is not WebAuthn is a 400 InvalidProvider", async () => {
    const res = await Auth(req("/auth/webauthn-options/credentials"), {
      providers: [Passkey(), Credentials({ credentials: {}, authorize: () => null })],
      adapter: MemoryAdapter(),
      secret: SECRET,
      trustHost: true,
      logger: recordingLogger().logger,
      experimental: { enableWebAuthn: true },
    })
    expect(res.status).toBe(400)
    expect(((await res.json()) as { error: { type: string } }).error.type).toBe("InvalidProvider")
  })
})

describe("passkey provider on the other endpoints", () => {
  const config = {
    providers: [Passkey()],
    adapter: MemoryAdapter(),
    secret: SECRET,
    trustHost: true,
    logger: recordingLogger().logger,
    experimental: { enableWebAuthn: true },
  }

  it("POST signin/passkey is a 400 that points to the passkey endpoints", async () => {
    const res = await Auth(req("/auth/signin/passkey", { form: {} }), config)
    expect(res.status).toBe(400)
    const body = (await res.json()) as { error: { type: string; message: string } }
    expect(body.error.type).toBe("InvalidProvider")
    expect(body.error.message).toContain("GET webauthn-options/passkey, then POST callback/passkey")
  })

  it("GET callback/passkey is a 405 (the credential is posted)", async () => {
    const res = await Auth(req("/auth/callback/passkey"), config)
    expect(res.status).toBe(405)
    expect(res.headers.get("allow")).toBe("POST")
  })
})
