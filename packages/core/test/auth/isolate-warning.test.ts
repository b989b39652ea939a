/**
 * The per-isolate warning: on a runtime that serves an app from many isolates (faked here by the
 * globals each platform sets), a config whose guarantees rest on the memory store logs
 * `store-per-isolate` once, naming what is weakened; on Node, or with a shared store, nothing.
 */
import { afterEach, describe, expect, it, vi } from "vitest"
import { MemoryAdapter } from "../../src/adapters/memory.js"
import { isolateRuntime } from "../../src/kernel/config/isolate-warning.js"
import { resolveConfig } from "../../src/kernel/config/resolve.js"
import GitHub from "../../src/providers/github.js"
import Passkey from "../../src/providers/passkey.js"
import { MemoryStore, type Store } from "../../src/store.js"
import { TwoFactor } from "../../src/two-factor.js"
import type { AuthConfig } from "../../src/types.js"
import { credentialsProvider, recordingLogger, SECRET } from "./helpers.js"

afterEach(() => {
  vi.unstubAllGlobals()
})

/** A store that is not the memory store, as a shared one would be (it keeps its data here). */
function sharedStore(): Store {
  const m = new MemoryStore()
  return {
    hit: (key, windowMs, limit) => m.hit(key, windowMs, limit),
    consumeOnce: (...a) => m.consumeOnce(...a),
    get: (k) => m.get(k),
    set: (...a) => m.set(...a),
    delete: (k) => m.delete(k),
  }
}

function resolveWith(overrides: Partial<AuthConfig>) {
  const rec = recordingLogger()
  const config: AuthConfig = {
    providers: [credentialsProvider()],
    secret: SECRET,
    trustHost: true,
    logger: rec.logger,
    ...overrides,
  }
  resolveConfig(config)
  const lines = rec.calls.filter((c) => c.level === "warn" && c.args[0] === "store-per-isolate")
  return { config, rec, lines, text: lines.map((l) => String(l.args[1])).join("\n") }
}

describe("isolateRuntime", () => {
  it("tells workerd, Vercel Edge, Netlify Edge and Deno Deploy by their documented globals", () => {
    expect(isolateRuntime({ navigator: { userAgent: "Cloudflare-Workers" } })).toBe(
      "Cloudflare Workers",
    )
    expect(isolateRuntime({ EdgeRuntime: "edge-runtime" })).toBe("Vercel Edge")
    const granted = { state: "granted" }
    const deploy = { permissions: { querySync: () => granted }, env: { get: () => "abc123" } }
    expect(isolateRuntime({ Deno: deploy })).toBe("Deno Deploy")
    // No permissions API at all (Deploy): the variable is read as it is.
    expect(isolateRuntime({ Deno: { env: { get: () => "abc123" } } })).toBe("Deno Deploy")
    expect(isolateRuntime({ Netlify: { env: {} } })).toBe("Netlify Edge")
  })

  it("is undefined on Node, Bun and Deno on a server (no deployment id)", () => {
    expect(isolateRuntime()).toBeUndefined()
    expect(isolateRuntime({ navigator: { userAgent: "Bun/1.4.5" } })).toBeUndefined()
    const server = {
      permissions: { querySync: () => ({ state: "granted" }) },
      env: { get: () => undefined },
    }
    expect(isolateRuntime({ Deno: server })).toBeUndefined()
  })

  it("never asks Deno for an environment variable it may not read (no prompt, no throw)", () => {
    const get = vi.fn(() => "abc123")
    const prompt = { permissions: { querySync: () => ({ state: "prompt" }) }, env: { get } }
    expect(isolateRuntime({ Deno: prompt })).toBeUndefined()
    expect(get).not.toHaveBeenCalled()
    const throwing = {
      permissions: {
        querySync: () => {
          throw new Error("NotCapable")
        },
      },
    }
    expect(isolateRuntime({ Deno: throwing })).toBeUndefined()
  })
})

describe("store-per-isolate", () => {
  it("on Vercel Edge, credentials without a store: one warning naming rate limits and revocation, and the fix", () => {
    vi.stubGlobal("EdgeRuntime", "edge-runtime")
    const { lines, text, rec, config } = resolveWith({})
    expect(lines).toHaveLength(1)
    expect(text).toMatch(/^No shared `store` is set/)
    expect(text).toContain("on Vercel Edge:")
    expect(text).toContain("sign-in rate limits count per isolate")
    expect(text).toContain("strict revocation is not possible")
    expect(text).toContain("@latchkey/store-upstash")
    expect(text).toContain("@latchkey/store-durable-object")
    expect(text).not.toMatch(/TOTP|passkey|OAuth/)
    // Resolving the same config again, or a copy of it, logs nothing more.
    resolveConfig(config)
    resolveConfig({ ...config })
    expect(rec.warnings().filter((c) => c === "store-per-isolate")).toHaveLength(1)
  })

  it("on workerd, two-factor, passkeys and OAuth are named too; an explicit MemoryStore counts as none", () => {
    vi.stubGlobal("navigator", { userAgent: "Cloudflare-Workers" })
    const { text } = resolveWith({
      providers: [credentialsProvider(), Passkey(), GitHub({ clientId: "id", clientSecret: "s" })],
      adapter: MemoryAdapter(),
      session: { strategy: "jwt" },
      experimental: { enableWebAuthn: true },
      twoFactor: TwoFactor({ issuer: "Test" }),
      store: new MemoryStore(),
    })
    expect(text).toContain("on Cloudflare Workers:")
    expect(text).toContain("a TOTP code is single-use per isolate")
    expect(text).toContain("a passkey challenge is single-use per isolate")
    expect(text).toContain("an OAuth state is single-use per isolate")
    // The memory adapter keeps revocation state in its database: not per isolate.
    expect(text).not.toContain("revocation")
  })

  it("says nothing with a shared store, on Node, or when nothing rests on the store", () => {
    vi.stubGlobal("EdgeRuntime", "edge-runtime")
    expect(resolveWith({ store: sharedStore() }).lines).toHaveLength(0)
    const nothingShared = resolveWith({
      providers: [{ ...credentialsProvider(), rateLimit: false }],
      session: { revocation: "off" },
    })
    expect(nothingShared.lines).toHaveLength(0)
    // A limit counted in its own (shared) store is not per isolate either.
    const ownStore = resolveWith({
      providers: [{ ...credentialsProvider(), rateLimit: { store: sharedStore() } }],
      session: { revocation: "off" },
    })
    expect(ownStore.lines).toHaveLength(0)
    vi.unstubAllGlobals()
    expect(resolveWith({}).lines).toHaveLength(0)
  })
})
