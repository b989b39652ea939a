import { describe, expectTypeOf, it } from "vitest"
import { decode, encode, getToken, type JWT } from "../../src/kernel/token/jwt.js"

const req = new Request("http://localhost/")

describe("token module types", () => {
  it("types getToken by `raw`", () => {
    expectTypeOf(getToken({ req, secret: "s" })).toEqualTypeOf<Promise<JWT | null>>()
    expectTypeOf(getToken({ req, raw: true })).toEqualTypeOf<Promise<string | null>>()
    expectTypeOf(getToken<true>({ req, raw: true })).toEqualTypeOf<Promise<string | null>>()
    expectTypeOf(getToken<false>({ req, secret: "s" })).toEqualTypeOf<Promise<JWT | null>>()
  })

  it("types encode and decode", () => {
    expectTypeOf(encode({ token: { sub: "1" }, secret: "s", salt: "x" })).toEqualTypeOf<
      Promise<string>
    >()
    expectTypeOf(decode({ token: "t", secret: ["a", "b"], salt: "x" })).toEqualTypeOf<
      Promise<JWT | null>
    >()
    // Never called: only the type checker looks at it.
    const missingSalt = () =>
      // @ts-expect-error salt is required
      encode({ secret: "s" })
    expectTypeOf(missingSalt).toBeFunction()
  })
})
