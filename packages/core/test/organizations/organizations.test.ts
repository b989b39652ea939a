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

/** An app with passkeys and the memory adapter; `extra` adds (or removes) keys. */
function appConfig(extra: Partial<AuthConfig> = {}): AuthConfig {
  return {
    providers: [Passkey()],
    adapter: MemoryAdapter(),
    secret: SECRET,
    trustHost: true,
    experimental: { enableWebAuthn: true },
    ...extra,
  }
}

const organizationRoute = (config: AuthConfig) =>
  Auth(new Request(`${ORIGIN}/auth/organization`), config)

describe("organizations configuration", () => {
  it("needs sendInvitation and valid roles; names what is wrong", async () => {
    const config = appConfig({
      // biome-ignore lint/suspicious/noExplicitAny: a wrong configuration on purpose
      organizations: Organizations({ roles: { owner: {}, "Bad Name": { x: "y" } } } as any),
    })
    expect((await organizationRoute(config)).status).toBe(500)
    const message = String(resolveConfig(config).configError?.message)
    expect(message).toContain("organizations.sendInvitation")
    expect(message).toContain("organizations.roles.owner")
    expect(message).toContain("organizations.roles.Bad Name")
  })

  it("names the adapter methods it lacks, and refuses a configuration without an adapter", () => {
    const { createOrganization: _c, acceptInvitation: _a, ...partial } = MemoryAdapter()
    const organizations = Organizations({ sendInvitation: () => {} })
    const lacking = resolveConfig(appConfig({ adapter: partial, organizations })).configError
    expect(String(lacking?.message)).toMatch(/acceptInvitation.*createOrganization/)
    const none = resolveConfig({
      ...appConfig({ organizations, session: { strategy: "jwt" } }),
      providers: [],
      adapter: undefined,
    }).configError
    expect(String(none?.message)).toContain("Organizations keep their members")
  })

  it("off unless configured: no route", async () => {
    expect((await organizationRoute(appConfig())).status).toBe(400)
  })

  it("plain options (as the Qwik bindings take them) bring the feature", async () => {
    const config = await withPlainProviders(
      appConfig({ organizations: { sendInvitation: () => {} } as never }),
    )
    expect((await organizationRoute(config)).status).toBe(401)
  })
})
