/**
 * The per-IP limit's client IP: proxy headers first, then the connection the framework
 * reported; and the key it becomes (parsed, bounded, IPv6 grouped), checked as properties
 * against Node's own address parser (`node:net`, test-only: the core uses web APIs).
 */
import { BlockList, isIP } from "node:net"
import fc from "fast-check"
import { describe, expect, it } from "vitest"
import {
  clientIpKey,
  defaultClientIp,
  setConnectionIp,
} from "../../src/kernel/rate-limit/client-ip.js"

describe("defaultClientIp", () => {
  it("uses the connection's address when no proxy header is there", () => {
    const request = new Request("http://app.example.com/auth/callback/password")
    expect(defaultClientIp(request)).toBeUndefined()
    setConnectionIp(request, "203.0.113.9")
    expect(defaultClientIp(request)).toBe("203.0.113.9")
    // Only that Request object: a header cannot set it, another request does not share it.
    expect(defaultClientIp(new Request(request.url))).toBeUndefined()
  })

  it("prefers the proxy's X-Forwarded-For entry over the connection (the proxy's own address)", () => {
    const request = new Request("http://app.example.com/", {
      headers: { "x-forwarded-for": "198.51.100.7" },
    })
    setConnectionIp(request, "10.0.0.2")
    expect(defaultClientIp(request)).toBe("198.51.100.7")
  })

  it("skips a last entry that is not an address: X-Real-IP, then the connection", () => {
    const request = new Request("http://app.example.com/", {
      headers: { "x-forwarded-for": "198.51.100.7, unknown", "x-real-ip": "2001:db8:5::77" },
    })
    expect(defaultClientIp(request)).toBe("2001:db8:5::/64")
  })
})

/** The /64 (or `prefix`) network of an IPv6 address, per Node's parser. */
function sameNetwork(key: string, address: string, prefix: number): boolean {
  const [network, bits] = key.split("/")
  if (Number(bits) !== prefix) return false
  const list = new BlockList()
  list.addSubnet(network!, prefix, "ipv6")
  return list.check(address, "ipv6")
}

const KEY = /^(?:\d{1,3}(?:\.\d{1,3}){3}|[0-9a-f:]{2,39}\/\d{2})$/

describe("clientIpKey (properties)", () => {
  it("any IPv4 address is its own key, with or without a port", () => {
    fc.assert(
      fc.property(fc.ipV4(), fc.option(fc.integer({ min: 0, max: 65535 })), (ip, port) => {
        expect(clientIpKey(port === null ? ip : `${ip}:${port}`)).toBe(ip)
        expect(clientIpKey(` ${ip} `)).toBe(ip)
      }),
    )
  })

  it("any IPv6 address becomes its /64: the network Node puts it in, however it is written", () => {
    fc.assert(
      fc.property(fc.ipV6(), fc.integer({ min: 0, max: 65535 }), (ip, port) => {
        const key = clientIpKey(ip)
        expect(key).toBeDefined()
        if (key!.includes(".")) {
          // An IPv4-mapped address counts as the IPv4 address it carries.
          const mapped = new BlockList()
          mapped.addSubnet("::ffff:0:0", 96, "ipv6")
          expect(mapped.check(ip, "ipv6")).toBe(true)
          expect(isIP(key!)).toBe(4)
          return
        }
        expect(sameNetwork(key!, ip, 64)).toBe(true)
        expect(clientIpKey(`[${ip}]:${port}`)).toBe(key)
        expect(clientIpKey(ip.toUpperCase())).toBe(key)
        // A key reads back as itself: callers may key an already keyed value.
        expect(clientIpKey(key)).toBe(key)
      }),
    )
  })

  it("two IPv6 addresses share a key exactly when they share the prefix", () => {
    const group = fc.integer({ min: 0, max: 0xffff }).map((g) => g.toString(16))
    const address = fc.array(group, { minLength: 8, maxLength: 8 }).map((g) => g.join(":"))
    fc.assert(
      fc.property(address, address, fc.integer({ min: 32, max: 64 }), (a, b, prefix) => {
        fc.pre(!a.startsWith("0:0:0:0:0:ffff:") && !b.startsWith("0:0:0:0:0:ffff:"))
        const [keyA, keyB] = [clientIpKey(a, prefix)!, clientIpKey(b, prefix)!]
        expect(sameNetwork(keyA, a, prefix)).toBe(true)
        expect(keyA === keyB).toBe(sameNetwork(keyA, b, prefix))
      }),
    )
  })

  it("anything at all: never throws, and a key is short, canonical and an address Node reads", () => {
    const junk = fc.oneof(
      fc.string({ maxLength: 80 }),
      fc.string({ unit: fc.constantFrom(..."0123456789abcdefABCDEF:.[]/% \t,"), maxLength: 70 }),
      fc.ipV4Extended(),
      fc.ipV6().map((ip) => `${ip}%eth0`),
      fc.string({ minLength: 8 * 1024, maxLength: 9 * 1024 }),
    )
    fc.assert(
      fc.property(junk, (value) => {
        const key = clientIpKey(value)
        if (key === undefined) return
        expect(key.length).toBeLessThanOrEqual(43)
        expect(key).toMatch(KEY)
        expect(isIP(key.split("/")[0]!)).not.toBe(0)
      }),
      { numRuns: 2000 },
    )
  })

  it("refuses what is not one address: octal-looking or short IPv4, zones, lists, hosts", () => {
    for (const bad of [
      "010.0.0.1",
      "127.1",
      "0x7f.0.0.1",
      "256.1.1.1",
      "1.2.3.4.5",
      "fe80::1%eth0",
      "198.51.100.7, 198.51.100.8",
      "localhost",
      "2001:db8::1::2",
      "::\t1",
      "[2001:db8::1",
      "2001:db8::/129",
      "",
      "   ",
      "x".repeat(8192),
    ]) {
      expect(clientIpKey(bad), bad).toBeUndefined()
    }
  })
})
