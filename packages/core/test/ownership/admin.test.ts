/**
 * The operator functions (`@latchkey/core/admin`) on the memory adapter: listing and removing
 * unproven accounts by age, ending a user's sessions, resetting two-factor.
 */
import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import {
  endAllSessions,
  listUnprovenUsers,
  removeUnprovenUsers,
  resetTwoFactor,
} from "../../src/admin.js"
import { getSession } from "../../src/kernel/session/get-session.js"
import type { AdapterUser } from "../../src/kernel/types/adapters.js"
import Credentials from "../../src/providers/credentials.js"
import { MemoryStore } from "../../src/store.js"
import type { AuthConfig } from "../../src/types.js"

const SECRET = "an-admin-test-secret-with-at-least-32-bytes!!"

function setup(strategy: "jwt" | "database" = "database") {
  const adapter = MemoryAdapter()
  const config: AuthConfig = {
    secret: SECRET,
    trustHost: true,
    adapter,
    store: new MemoryStore(),
    session: { strategy, revocation: "strict" },
    providers: [Credentials({ authorize: async () => null })],
    logger: { warn: () => {}, debug: () => {} },
  }
  const user = (email: string, proven: boolean) =>
    adapter.createUser!({
      id: crypto.randomUUID(),
      email,
      emailVerified: proven ? new Date() : null,
    } as AdapterUser) as Promise<AdapterUser>
  return { adapter, config, user }
}

const soon = () => new Date(Date.now() + 1000)

describe("listUnprovenUsers / removeUnprovenUsers", () => {
  it("lists only unproven users created before olderThan, oldest first, at most limit", async () => {
    const { config, user } = setup()
    const a = await user("a@example.com", false)
    await user("proven@example.com", true)
    const b = await user("b@example.com", false)
    const listed = await listUnprovenUsers(config, { olderThan: soon(), limit: 10 })
    expect(listed.map((u) => u.id)).toEqual([a.id, b.id])
    expect(await listUnprovenUsers(config, { olderThan: soon(), limit: 1 })).toHaveLength(1)
    // Created after the cut-off: not listed.
    expect(await listUnprovenUsers(config, { olderThan: new Date(0), limit: 10 })).toEqual([])
  })

  it("removes them with their sessions and passkeys, keeps proven users and one proved meanwhile", async () => {
    const { adapter, config, user } = setup()
    const squatted = await user("victim@example.com", false)
    const provedMeanwhile = await user("late@example.com", false)
    const owner = await user("owner@example.com", true)
    await adapter.createSession!({
      sessionToken: "squatter-token",
      userId: squatted.id,
      expires: new Date(Date.now() + 60_000),
    })
    // Proved between the listing and the deletion: the row is read again and kept.
    const getUser = adapter.getUser!.bind(adapter)
    adapter.getUser = async (id) => {
      if (id === provedMeanwhile.id) {
        await adapter.updateUser!({ id, emailVerified: new Date() })
      }
      return getUser(id)
    }
    const removed = await removeUnprovenUsers(config, { olderThan: soon(), limit: 10 })
    expect(removed.map((u) => u.id)).toEqual([squatted.id])
    expect(await adapter.getUser!(squatted.id)).toBeNull()
    expect(await adapter.getSessionAndUser!("squatter-token")).toBeNull()
    expect(await adapter.getUser!(provedMeanwhile.id)).not.toBeNull()
    expect(await adapter.getUser!(owner.id)).not.toBeNull()
  })

  it("refuses bad queries and adapters without listUnprovenUsers, with typed errors", async () => {
    const { config } = setup()
    await expect(listUnprovenUsers(config, { olderThan: new Date("x"), limit: 1 })).rejects.toThrow(
      /olderThan/,
    )
    await expect(listUnprovenUsers(config, { olderThan: soon(), limit: 0 })).rejects.toThrow(
      /limit/,
    )
    const { listUnprovenUsers: _, ...without } = MemoryAdapter()
    await expect(
      listUnprovenUsers({ ...config, adapter: without }, { olderThan: soon(), limit: 1 }),
    ).rejects.toMatchObject({ type: "MissingAdapterMethods" })
  })
})

describe("endAllSessions", () => {
  it("ends a user's JWT sessions (strict revocation: the next read is signed out)", async () => {
    const { config, user } = setup("jwt")
    const u = await user("a@example.com", true)
    const { encode } = await import("../../src/kernel/token/jwt.js")
    const cookie = await encode({
      token: { sub: u.id, sid: crypto.randomUUID(), auth_time: Math.floor(Date.now() / 1000) },
      secret: SECRET,
      salt: "authjs.session-token",
    })
    const read = async () =>
      (
        await getSession(
          new Request("http://localhost/", {
            headers: { cookie: `authjs.session-token=${cookie}` },
          }),
          config,
        )
      ).session
    expect(await read()).not.toBeNull()
    await endAllSessions(config, u.id)
    expect(await read()).toBeNull()
    await expect(endAllSessions(config, "")).rejects.toMatchObject({ type: "InvalidParameter" })
  })

  it("ends a user's database sessions", async () => {
    const { adapter, config, user } = setup()
    const u = await user("a@example.com", true)
    await adapter.createSession!({
      sessionToken: "t",
      userId: u.id,
      expires: new Date(Date.now() + 60_000),
    })
    await endAllSessions(config, u.id)
    expect(await adapter.getSessionAndUser!("t")).toBeNull()
  })
})

describe("resetTwoFactor", () => {
  it("removes the enrollment and recovery codes; says whether there was one", async () => {
    const { adapter, config, user } = setup()
    const u = await user("a@example.com", true)
    await adapter.setTwoFactor!({ userId: u.id, secret: "sealed", enabledAt: new Date() })
    await adapter.replaceRecoveryCodes!(u.id, ["h1", "h2"])
    expect(await resetTwoFactor(config, u.id)).toBe(true)
    expect(await adapter.getTwoFactor!(u.id)).toBeNull()
    expect(await adapter.countRecoveryCodes!(u.id)).toBe(0)
    expect(await resetTwoFactor(config, u.id)).toBe(false)
  })
})
