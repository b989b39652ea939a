import { runAdapterContract } from "@latchkey/adapter-test"
import { MemoryAdapter } from "@latchkey/core/adapters/memory"
import { AdapterError } from "@latchkey/core/errors"
import { describe, expect, it } from "vitest"

runAdapterContract({ name: "memory", adapter: () => MemoryAdapter() })

describe("MemoryAdapter specifics", () => {
  it("keeps the id the core proposes", async () => {
    const adapter = MemoryAdapter()
    const user = await adapter.createUser!({
      id: "proposed",
      email: "a@example.com",
      emailVerified: null,
    })
    expect(user.id).toBe("proposed")
  })

  it("mutating what was passed in does not change the store", async () => {
    const adapter = MemoryAdapter()
    const input = { id: "u1", email: "a@example.com", emailVerified: new Date(5), name: "A" }
    await adapter.createUser!(input)
    input.name = "B"
    input.emailVerified.setTime(9)
    const stored = await adapter.getUser!("u1")
    expect(stored?.name).toBe("A")
    expect(stored?.emailVerified?.getTime()).toBe(5)
  })

  it("refuses with AdapterError what a database's constraints refuse", async () => {
    const adapter = MemoryAdapter()
    const account = {
      userId: "nobody",
      type: "oauth" as const,
      provider: "github",
      providerAccountId: "1",
    }
    expect(() => adapter.linkAccount!(account)).toThrow(AdapterError)
    const token = { identifier: "a@example.com", token: "t", expires: new Date() }
    await adapter.createVerificationToken!(token)
    expect(() => adapter.createVerificationToken!(token)).toThrow(AdapterError)
  })

  it("instances do not share state", async () => {
    const a = MemoryAdapter()
    const b = MemoryAdapter()
    const user = await a.createUser!({ id: "x", email: "x@example.com", emailVerified: null })
    expect(await b.getUser!(user.id)).toBeNull()
  })
})
