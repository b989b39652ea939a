import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { createTokenCodec } from "../../src/kernel/token/codec.js"
import { jwe as nodeJwe } from "../../src/kernel/token/jwe-node.js"
import { jwe as webJwe } from "../../src/kernel/token/jwe-web.js"
import { SALT, SECRET } from "./helpers.js"

const TIME_CLAIMS = new Set(["iat", "exp", "nbf", "jti"])
// Any JSON object whose own time claims we don't overwrite with non-numbers.
const payloadArb = fc
  .dictionary(
    fc.string().filter((k) => !TIME_CLAIMS.has(k) && k !== "__proto__"),
    fc.jsonValue(),
    { maxKeys: 8 },
  )
  .map((o) => JSON.parse(JSON.stringify(o)) as Record<string, unknown>)

for (const [name, backend] of [
  ["node:crypto", nodeJwe],
  ["jose/WebCrypto", webJwe],
] as const) {
  const { encodeToken, decodeToken } = createTokenCodec(backend)

  describe(`token properties (${name} backend)`, () => {
    it("round-trips any JSON object", async () => {
      await fc.assert(
        fc.asyncProperty(payloadArb, async (payload) => {
          const token = await encodeToken({ token: payload, secret: SECRET, salt: SALT })
          const decoded = await decodeToken({ token, secret: SECRET, salt: SALT })
          const { iat, exp, jti, ...rest } = decoded ?? {}
          expect(rest).toEqual(payload)
          expect(typeof iat).toBe("number")
          expect(typeof exp).toBe("number")
          expect(typeof jti).toBe("string")
        }),
        { numRuns: 100 },
      )
    })

    it("gives null for any single-character change anywhere in a token", async () => {
      const token = await encodeToken({ token: { sub: "x" }, secret: SECRET, salt: SALT })
      await fc.assert(
        fc.asyncProperty(
          fc.nat({ max: token.length - 1 }),
          fc.integer({ min: 1, max: 127 }),
          async (index, code) => {
            const replacement = String.fromCharCode(code)
            fc.pre(replacement !== token[index])
            const mutated = token.slice(0, index) + replacement + token.slice(index + 1)
            expect(await decodeToken({ token: mutated, secret: SECRET, salt: SALT })).toBeNull()
          },
        ),
        { numRuns: 400 },
      )
    })

    it("gives null, never a throw, for any string", async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.oneof(
            fc.string({ maxLength: 400 }),
            fc.string({ unit: "binary", maxLength: 200 }),
            fc
              .array(fc.base64String({ maxLength: 60 }), { minLength: 5, maxLength: 5 })
              .map((a) => a.join(".")),
          ),
          async (garbage) => {
            expect(await decodeToken({ token: garbage, secret: SECRET, salt: SALT })).toBeNull()
          },
        ),
        { numRuns: 300 },
      )
    })
  })
}
