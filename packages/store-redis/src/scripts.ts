/**
 * `@latchkey/store-redis/scripts`: the Lua scripts and the map-field codec of Latchkey's Redis
 * store, with no client in sight (no node-redis import), so any store that talks to Redis —
 * node-redis here, an HTTP client (Upstash REST) elsewhere — runs the very same scripts and
 * reads the very same fields.
 *
 * **Map fields.** Redis 7.0 has no per-field expiry (HEXPIRE came in 7.4), so each hash field
 * carries its own: a field written by `mapSet` holds
 *
 * ```
 * \u0001<expiresAtMs>:<rank>:<value>
 * ```
 *
 * `expiresAtMs` is a whole number of milliseconds since the epoch, `rank` a JavaScript number
 * as `String()` writes it (the bound's rank, 0 when none), `value` the caller's string as is
 * (it may hold colons: only the first two separate). The leading U+0001 tells a field of this
 * format from one the previous version wrote (the bare value, a JSON record): JSON text never
 * starts with a control character. Such a legacy field has no expiry of its own (it lives as
 * long as the map's key) and ranks below every encoded field, so a bounded write prunes it
 * first.
 *
 * **Whose clock.** The writer passes its own `Date.now()` to the script and readers compare
 * with theirs: reads stay one plain `HGET` / `HGETALL` (a script reading `TIME` would turn
 * every read into an `EVAL`). Instances' clocks differ by the NTP skew, milliseconds, which
 * shifts a field's end by as much — noise against lifetimes of minutes to days. The map key's
 * own expiry is relative (`PEXPIRE`), so Redis's clock keeps that one.
 *
 * Every script touches exactly one key (`KEYS[1]`), so on Redis Cluster each runs on one slot.
 */

/** The first character of a field value written with its own expiry and rank. */
export const FIELD_MARK = "\u0001"

/** A map field as stored: the caller's value, when it expires, its rank. */
export interface StoredField {
  value: string
  /** Epoch ms after which the field is gone to every read; `null` for a legacy field. */
  expiresAtMs: number | null
  /** The bound's rank; legacy fields rank below every encoded one (pruned first). */
  rank: number
  /** Written by the previous version (the bare value, no expiry of its own). */
  legacy: boolean
}

/** The stored form of one map field (see the module header for the format). */
export function encodeField(value: string, expiresAtMs: number, rank = 0): string {
  return `${FIELD_MARK}${Math.ceil(expiresAtMs)}:${rank}:${value}`
}

/** Reads a stored field; anything not in the current format is a legacy value, kept whole. */
export function decodeField(raw: string): StoredField {
  if (raw.startsWith(FIELD_MARK)) {
    const a = raw.indexOf(":", 1)
    const b = a < 0 ? -1 : raw.indexOf(":", a + 1)
    const expiresAtMs = a < 0 ? Number.NaN : Number(raw.slice(1, a))
    const rank = b < 0 ? Number.NaN : Number(raw.slice(a + 1, b))
    if (a > 1 && b > a + 1 && Number.isFinite(expiresAtMs) && Number.isFinite(rank)) {
      return { value: raw.slice(b + 1), expiresAtMs, rank, legacy: false }
    }
  }
  return { value: raw, expiresAtMs: null, rank: Number.NEGATIVE_INFINITY, legacy: true }
}

/** The field's value as a read gives it: `null` once it has expired at `nowMs`. */
export function liveFieldValue(raw: string, nowMs: number): string | null {
  const field = decodeField(raw)
  return field.expiresAtMs !== null && field.expiresAtMs <= nowMs ? null : field.value
}

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

/**
 * Redis Cluster's single-use marker: `SET NX PX`, and how many replicas the master has
 * connected, so the store knows whether to `WAIT` for one before answering (a script cannot
 * call WAIT itself).
 */
// KEYS[1] = marker; ARGV[1] = ttl in ms. Returns { 1 first time / 0 seen, connected replicas }.
export const CONSUME_ONCE_SCRIPT = `
local first = redis.call('SET', KEYS[1], '1', 'NX', 'PX', ARGV[1])
local info = redis.call('INFO', 'replication')
return { first and 1 or 0, tonumber(string.match(info, 'connected_slaves:(%d+)')) or 0 }
`

/** Redis Cluster's `set`: `SET PX`, and the master's connected replicas (as above). */
// KEYS[1] = key; ARGV[1] = value, ARGV[2] = ttl in ms. Returns the connected replicas.
export const SET_SCRIPT = `
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
local info = redis.call('INFO', 'replication')
return tonumber(string.match(info, 'connected_slaves:(%d+)')) or 0
`

/**
 * One map field written with its own expiry (already encoded by the caller, `encodeField`),
 * the map's key expiry grown to cover it, and — with a bound — the map pruned, all in one
 * atomic step:
 *
 * - The key's expiry only grows: the map lives as long as its longest-lived field (a session
 *   recorded with a short life must not cut short the list of the user's longer ones).
 * - Unbounded, or while `HLEN` is within the bound, that is all: O(1), a normal sign-in
 *   scans nothing.
 * - Over the bound, the script reads the map once, drops the fields expired at `now`, then
 *   the lowest-ranked (legacy fields first, then by rank, ties by field name so every replica
 *   of the decision is the same) until at most `maxFields` remain. The field just written is
 *   ranked like any other: the contract says the lowest ranks go, whoever they are.
 */
// KEYS[1] = map; ARGV[1] = field, ARGV[2] = encoded value, ARGV[3] = ttl in ms,
// ARGV[4] = the writer's now in epoch ms, ARGV[5] = maxFields ('' for no bound).
// Returns the number of fields the map holds afterwards.
export const MAP_SET_SCRIPT = `
local key = KEYS[1]
redis.call('HSET', key, ARGV[1], ARGV[2])
local ttl = tonumber(ARGV[3])
if redis.call('PTTL', key) < ttl then
  redis.call('PEXPIRE', key, ttl)
end
local max = tonumber(ARGV[5])
local size = redis.call('HLEN', key)
if not max or size <= max then
  return size
end
local now = tonumber(ARGV[4])
local all = redis.call('HGETALL', key)
local kept, dead = {}, {}
for i = 1, #all, 2 do
  local field, raw = all[i], all[i + 1]
  local expires, rank
  if string.byte(raw, 1) == 1 then
    local a = string.find(raw, ':', 2, true)
    local b = a and string.find(raw, ':', a + 1, true)
    if b then
      expires = tonumber(string.sub(raw, 2, a - 1))
      rank = tonumber(string.sub(raw, a + 1, b - 1))
    end
  end
  if expires and rank then
    if expires <= now then
      dead[#dead + 1] = field
    else
      kept[#kept + 1] = { field, 1, rank }
    end
  else
    kept[#kept + 1] = { field, 0, 0 }
  end
end
local excess = #kept - max
if excess > 0 then
  table.sort(kept, function(x, y)
    if x[2] ~= y[2] then return x[2] < y[2] end
    if x[3] ~= y[3] then return x[3] < y[3] end
    return x[1] < y[1]
  end)
  for i = 1, excess do
    dead[#dead + 1] = kept[i][1]
  end
end
for i = 1, #dead, 500 do
  redis.call('HDEL', key, unpack(dead, i, math.min(i + 499, #dead)))
end
return size - #dead
`

const shaCache = new Map<string, Promise<string>>()

/**
 * SHA-1 of a script in hex, as EVALSHA names it (Redis's choice of hash, not a security use).
 * Web Crypto rather than `node:crypto`, so the store loads on every runtime; computed once.
 */
export function scriptSha1(script: string): Promise<string> {
  let sha = shaCache.get(script)
  if (!sha) {
    sha = crypto.subtle
      .digest("SHA-1", new TextEncoder().encode(script))
      .then((digest) =>
        [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join(""),
      )
    shaCache.set(script, sha)
  }
  return sha
}

/** SHA-1 of `HIT_SCRIPT` (see `scriptSha1`). */
export const hitScriptSha1 = () => scriptSha1(HIT_SCRIPT)

/** The `ARGV` of `MAP_SET_SCRIPT` for one write (so every store builds them alike). */
export function mapSetArgs(
  field: string,
  value: string,
  ttlMs: number,
  nowMs: number,
  bound?: { maxFields: number; rank: number },
): string[] {
  const ttl = Math.ceil(ttlMs)
  return [
    field,
    encodeField(value, nowMs + ttl, bound?.rank ?? 0),
    String(ttl),
    String(nowMs),
    bound ? String(bound.maxFields) : "",
  ]
}
