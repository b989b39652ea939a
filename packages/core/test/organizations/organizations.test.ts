/** The organizations scenarios with the memory adapter (PostgreSQL: packages/adapter-postgres/test). */
import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { Auth } from "../../src/index.js"
import { resolveConfig } from "../../src/kernel/config/resolve.js"
import { Organizations } from "../../src/organizations.js"
import { withPlainProviders } from "../../src/plain-providers.js"
import Passkey from "../../src/providers/passkey.js"
import type { AuthConfig } from "../../src/types.js"
import { ORIGIN, SECRET } from "../auth/helpers.js"
import { organizationScenarios } from "./organizations-scenarios.js"

organizationScenarios({ name: "memory adapter", adapter: async () => MemoryAdapter() })

describe("organizations configuration", () => {
  it("needs sendInvitation and valid roles; names what is wrong", async () => {
    const config: AuthConfig = {
      providers: [Passkey()],
      adapter: MemoryAdapter(),
      secret: SECRET,
      trustHost: true,
      experimental: { enableWebAuthn: true },
      // biome-ignore lint/suspicious/noExplicitAny: a wrong configuration on purpose
      organizations: Organizations({ roles: { owner: {}, "Bad Name": { x: "y" } } } as any),
    }
    const res = await Auth(new Request(`${ORIGIN}/auth/organization`), config)
    expect(res.status).toBe(500)
    const message = String(resolveConfig(config).configError?.message)
    expect(message).toContain("organizations.sendInvitation")
    expect(message).toContain("organizations.roles.owner")
    expect(message).toContain("organizations.roles.Bad Name")
  })

  it("off unless configured: no route", async () => {
    const config: AuthConfig = {
      providers: [Passkey()],
      adapter: MemoryAdapter(),
      secret: SECRET,
      trustHost: true,
      experimental: { enableWebAuthn: true },
    }
    const res = await Auth(new Request(`${ORIGIN}/auth/organization`), config)
    expect(res.status).toBe(400)
  })

  it("plain options (as the Qwik bindings take them) bring the feature", async () => {
    const config = await withPlainProviders({
      providers: [Passkey()],
      adapter: MemoryAdapter(),
      secret: SECRET,
      trustHost: true,
      experimental: { enableWebAuthn: true },
      organizations: { sendInvitation: () => {} } as never,
    })
    const res = await Auth(new Request(`${ORIGIN}/auth/organization`), config)
    expect(res.status).toBe(401)
  })
})
