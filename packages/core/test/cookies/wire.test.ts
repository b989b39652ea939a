/**
 * The kernel reads and writes cookies by the `cookie` package's rules (v1, what Auth.js
 * vendors) without carrying the package: here the two are compared on arbitrary headers,
 * names, values and options, hostile ones included.
 */
import * as cookie from "cookie"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import { serializeCookie } from "../../src/kernel/cookies/serialize.js"
import { parseCookieHeader } from "../../src/kernel/token/cookie-header.js"
import type { ResponseCookie } from "../../src/kernel/types/cookies.js"

/** Characters that matter to the grammar, some that do not, and some that must never pass. */
const headerChar = fc.constantFrom(
  ..."ab=;; \t%2F%zz%E2%82%AC\u00a0\u2028\r\n\u0000\"',\\é€_-.".split(""),
  "__proto__",
  "constructor",
  "%",
  "=",
  ";",
)
const header = fc.array(headerChar, { maxLength: 40 }).map((parts) => parts.join(""))
const realistic = fc
  .tuple(
    fc.array(
      fc
        .tuple(fc.string({ maxLength: 8 }), fc.string({ maxLength: 12 }))
        .map(([n, v]) => `${n}=${v}`),
      { maxLength: 6 },
    ),
    fc.constantFrom("; ", ";", " ; ", ";\t"),
  )
  .map(([pairs, separator]) => pairs.join(separator))

const entries = (record: Record<string, unknown>) => Object.entries({ ...record })

describe("parseCookieHeader", () => {
  it("reads every header as the cookie package does", () => {
    fc.assert(
      fc.property(fc.oneof(header, realistic, fc.string({ maxLength: 60 })), (text) => {
        expect(entries(parseCookieHeader(text))).toEqual(entries(cookie.parse(text)))
      }),
      { numRuns: 3000 },
    )
  })

  it("gives a name like __proto__ no special meaning, and an empty or missing header nothing", () => {
    const cookies = parseCookieHeader("__proto__=x; constructor=y; a=1; a=2")
    expect(entries(cookies)).toEqual([
      ["__proto__", "x"],
      ["constructor", "y"],
      ["a", "1"],
    ])
    // Nothing inherited: no name reaches Object.prototype.
    for (const inherited of ["toString", "hasOwnProperty", "valueOf"]) {
      expect((cookies as Record<string, unknown>)[inherited]).toBeUndefined()
    }
    expect(entries(parseCookieHeader(null))).toEqual([])
    expect(entries(parseCookieHeader(""))).toEqual([])
    expect(entries(parseCookieHeader("="))).toEqual([])
  })

  it("reads past long runs of pairs without their `=`, as the cookie package does", () => {
    for (const text of [`${";".repeat(8192)}a=b`, `x=1;${"c;".repeat(4096)}d=%41`]) {
      expect(entries(parseCookieHeader(text))).toEqual(entries(cookie.parse(text)))
    }
  })
})

const nameChar = fc.constantFrom(..."aZ09-_.~!#$&'*+^`|%=; \t\u0000\u007f\"é".split(""))
const optionsArb = fc.record(
  {
    httpOnly: fc.boolean(),
    secure: fc.boolean(),
    partitioned: fc.boolean(),
    sameSite: fc.constantFrom("lax", "strict", "none", "Lax", "NONE", "bogus", "", true, false),
    priority: fc.constantFrom("low", "medium", "high", "High", "urgent", "", 1),
    path: fc.oneof(fc.constantFrom("/", "/auth", "/a;b", "/\u0000", "", "/é"), fc.string()),
    domain: fc.oneof(
      fc.constantFrom("example.com", ".example.com", "a..b", "-x.com", "x.com;", "EXAMPLE.com"),
      fc.string({ maxLength: 10 }),
    ),
    maxAge: fc.oneof(fc.integer(), fc.double(), fc.constantFrom(0, -1, Number.NaN)),
    expires: fc.oneof(fc.date(), fc.constant(new Date(Number.NaN))),
  },
  { requiredKeys: [] },
)

describe("serializeCookie", () => {
  it("writes the same Set-Cookie value, or refuses the same input, as the cookie package", () => {
    fc.assert(
      fc.property(
        fc.array(nameChar, { maxLength: 12 }).map((c) => c.join("")),
        fc.string({ maxLength: 30 }),
        optionsArb,
        (name, value, options) => {
          const input = { name, value, options } as ResponseCookie
          const ours = attempt(() => serializeCookie(input))
          const theirs = attempt(() => cookie.serialize(name, value, options as never))
          expect(ours).toEqual(theirs)
        },
      ),
      { numRuns: 3000 },
    )
  })

  it("writes Latchkey's own cookies as before", () => {
    const expires = new Date(Date.UTC(2030, 0, 1))
    expect(
      serializeCookie({
        name: "__Secure-authjs.session-token",
        value: "eyJ.a b",
        options: { httpOnly: true, sameSite: "lax", path: "/", secure: true, expires },
      }),
    ).toBe(
      "__Secure-authjs.session-token=eyJ.a%20b; Path=/; Expires=Tue, 01 Jan 2030 00:00:00 GMT; HttpOnly; Secure; SameSite=Lax",
    )
  })
})

/** The value, or the `TypeError`'s message. */
function attempt(write: () => string): { value: string } | { error: string } {
  try {
    return { value: write() }
  } catch (error) {
    expect(error).toBeInstanceOf(TypeError)
    return { error: (error as Error).message }
  }
}
