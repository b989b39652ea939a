/**
 * The rate-limit script: a fixed-window counter that counts and sets the window's expiry in one
 * atomic step. INCR then PEXPIRE as two commands could leave a counter without a TTL (a crash
 * in between) — a key that would never expire and lock someone out for good.
 */
// KEYS[1] = counter; ARGV[1] = window in ms. Returns { count, ms left in the window }.
export const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return { count, ttl }
`

let hitScriptSha: Promise<string> | undefined

/**
 * SHA-1 of the script in hex, as EVALSHA names it (Redis's choice of hash, not a security use).
 * Web Crypto rather than `node:crypto`, so the store loads on every runtime; computed once.
 */
export function hitScriptSha1(): Promise<string> {
  hitScriptSha ??= crypto.subtle
    .digest("SHA-1", new TextEncoder().encode(HIT_SCRIPT))
    .then((digest) =>
      [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join(""),
    )
  return hitScriptSha
}

/**
 * A map field set and the map's expiry extended in one atomic step (HSET then PEXPIRE as two
 * commands could leave a map without a TTL). The expiry only grows: a session recorded with a
 * short life must not cut short the list of the user's longer sessions.
 */
// KEYS[1] = map; ARGV[1] = field, ARGV[2] = value, ARGV[3] = ttl in ms.
export const MAP_SET_SCRIPT = `
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < tonumber(ARGV[3]) then
  redis.call('PEXPIRE', KEYS[1], ARGV[3])
end
return 1
`
