/**
 * Values that keep the order in which rows were made, as the memory adapter (insertion order)
 * and PostgreSQL's serial ids do: a "newest N" or "oldest first" must not depend on a random id
 * when two rows share a timestamp.
 *
 * - Public ids of database sessions are UUIDs of version 7 (RFC 9562), which sort by the time
 *   they were made: the core writes a session's `createdAt` in whole seconds, and sign-ins within
 *   one second keep their order through the id.
 * - A user's `createdAt` is this process's clock made strictly increasing: users made in the same
 *   millisecond are listed oldest first in the order they were made.
 */

let lastMs = 0
let sequence = 0

/** A version 7 UUID, lowercase: later calls in this process sort after earlier ones. */
export function timeOrderedId(): string {
  let ms = Date.now()
  if (ms > lastMs) {
    // A random start in the lower half leaves room to count within the millisecond.
    sequence = crypto.getRandomValues(new Uint16Array(1))[0]! & 0x7ff
  } else {
    ms = lastMs
    sequence++
    if (sequence > 0xfff) {
      ms++
      sequence = 0
    }
  }
  lastMs = ms
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  for (let i = 5; i >= 0; i--) {
    bytes[i] = ms % 256
    ms = Math.floor(ms / 256)
  }
  bytes[6] = 0x70 | (sequence >> 8)
  bytes[7] = sequence & 0xff
  bytes[8] = 0x80 | (bytes[8]! & 0x3f)
  const hex = Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("")
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

let lastCreated = 0

/** Now, or 1 ms after the last value this gave when the clock has not moved past it. */
export function increasingNow(): Date {
  lastCreated = Math.max(Date.now(), lastCreated + 1)
  return new Date(lastCreated)
}
