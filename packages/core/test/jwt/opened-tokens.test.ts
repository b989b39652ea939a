import { afterEach, describe, expect, it, vi } from "vitest"
import { createTokenCodec } from "../../src/kernel/token/codec.js"
import { jwe } from "../../src/kernel/token/jwe-node.js"
import { OpenedTokens } from "../../src/kernel/token/opened-tokens.js"
import { SALT, SECRET } from "./helpers.js"

afterEach(() => {
  vi.useRealTimers()
  vi.restoreAllMocks()
})

/** A codec of its own, so what these tests open is not shared with other files. */
function codec() {
  const open = vi.spyOn(jwe, "open")
  return { ...createTokenCodec(jwe), open }
}

describe("opened tokens (decode of a token seen before)", () => {
  it("opens a token once and reads it again without decrypting, with the same claims", async () => {
    const { encodeToken, decodeToken, open } = codec()
    const token = await encodeToken({ token: { sub: "1" }, secret: SECRET, salt: SALT })
    const first = await decodeToken({ token, secret: SECRET, salt: SALT })
    const second = await decodeToken({ token, secret: SECRET, salt: SALT })
    expect(second).toEqual(first)
    // Each read gets its own object: a callback changing one cannot change the next.
    expect(second).not.toBe(first)
    expect(open).toHaveBeenCalledTimes(1)
  })

  it("stops reading a token once the secret that opened it is no longer configured", async () => {
    const { encodeToken, decodeToken } = codec()
    const old = "o".repeat(32)
    const token = await encodeToken({ token: { sub: "1" }, secret: old, salt: SALT })
    expect(await decodeToken({ token, secret: [SECRET, old], salt: SALT })).not.toBeNull()
    expect(await decodeToken({ token, secret: [SECRET], salt: SALT })).toBeNull()
  })

  it("never answers for another salt (another cookie name)", async () => {
    const { encodeToken, decodeToken } = codec()
    const token = await encodeToken({ token: { sub: "1" }, secret: SECRET, salt: SALT })
    expect(await decodeToken({ token, secret: SECRET, salt: SALT })).not.toBeNull()
    expect(await decodeToken({ token, secret: SECRET, salt: `__Secure-${SALT}` })).toBeNull()
  })

  it("checks expiry on every read", async () => {
    vi.useFakeTimers({ toFake: ["Date"] })
    vi.setSystemTime(new Date("2030-01-01T00:00:00Z"))
    const { encodeToken, decodeToken } = codec()
    const token = await encodeToken({ secret: SECRET, salt: SALT, maxAge: 60 })
    expect(await decodeToken({ token, secret: SECRET, salt: SALT })).not.toBeNull()
    vi.setSystemTime(new Date("2030-01-01T00:02:00Z"))
    expect(await decodeToken({ token, secret: SECRET, salt: SALT })).toBeNull()
  })

  it("keeps only tokens that authenticated", async () => {
    const { encodeToken, decodeToken, open } = codec()
    const token = await encodeToken({ token: { sub: "1" }, secret: SECRET, salt: SALT })
    const parts = token.split(".")
    parts[4] = `${parts[4]!.startsWith("A") ? "B" : "A"}${parts[4]!.slice(1)}`
    const forged = parts.join(".")
    expect(await decodeToken({ token: forged, secret: SECRET, salt: SALT })).toBeNull()
    expect(await decodeToken({ token: forged, secret: SECRET, salt: SALT })).toBeNull()
    expect(open).toHaveBeenCalledTimes(2)
  })

  it("holds at most its capacity, dropping the oldest first", () => {
    const tokens = new OpenedTokens(2)
    tokens.set("a", SALT, SECRET, "{}")
    tokens.set("b", SALT, SECRET, "{}")
    tokens.set("c", SALT, SECRET, "{}")
    expect(tokens.size).toBe(2)
    expect(tokens.get("a", SALT, [SECRET])).toBeUndefined()
    expect(tokens.get("c", SALT, [SECRET])).toBe("{}")
  })
})
