/** The top-level `store` option: what the core counts in when a provider names no store. */
import { describe, expect, it } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { resolveConfig } from "../../src/kernel/config/resolve.js"
import { Nodemailer } from "../../src/providers/nodemailer.js"
import { defaultStore, MemoryStore, type Store } from "../../src/store.js"
import type { AuthConfig } from "../../src/types.js"
import { SECRET } from "../email/helpers.js"
import { postForm } from "./post-form.js"

function recordingStore(): { store: Store; keys: string[] } {
  const inner = new MemoryStore()
  const keys: string[] = []
  const store: Store = {
    hit: (key, windowMs, limit) => {
      keys.push(key)
      return inner.hit(key, windowMs, limit)
    },
    consumeOnce: (key, ttl) => inner.consumeOnce(key, ttl),
    get: (key) => inner.get(key),
    set: (key, value, ttl) => inner.set(key, value, ttl),
    delete: (key) => inner.delete(key),
  }
  return { store, keys }
}

describe("config.store", () => {
  it("defaults to one memory store per signing secret, not one per process", () => {
    const resolved = resolveConfig({ providers: [], secret: SECRET })
    expect(resolved.store).toBe(defaultStore(SECRET))
    // Built again on every request (QwikAuth$'s config function): the same store.
    expect(resolveConfig({ providers: [], secret: SECRET }).store).toBe(resolved.store)
    // Rotated in: the signing secret is the first, and it names the store.
    expect(resolveConfig({ providers: [], secret: [SECRET, "old"] }).store).toBe(resolved.store)
    // Another app in the same process: its own counters, markers and user ids.
    const other = resolveConfig({ providers: [], secret: `${SECRET}-other-app` })
    expect(other.store).not.toBe(resolved.store)
    resolved.store.set("session-version:1", "5", 60_000)
    expect(other.store.get("session-version:1")).toBeNull()
  })

  it("is where email sign-in limits are counted when the provider names no store", async () => {
    const { store, keys } = recordingStore()
    const config: AuthConfig = {
      secret: SECRET,
      trustHost: true,
      adapter: MemoryAdapter(),
      store,
      providers: [Nodemailer({ id: "email", sendVerificationRequest: () => {} })],
    }
    const res = await postForm(
      config,
      "/auth/signin/email",
      { email: "ann@example.com" },
      "192.0.2.44",
    )
    expect(res.status).toBe(303)
    expect(keys).toEqual(["email-send:ip:192.0.2.44", "email-send:address:ann@example.com"])
  })
})
