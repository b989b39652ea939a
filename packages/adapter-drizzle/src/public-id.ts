/**
 * Public ids of database sessions: UUIDs of version 7 (RFC 9562), which sort by the time they
 * were made. The core writes a session's `createdAt` in whole seconds; sign-ins within one second
 * keep their order through the id, so "the newest N" of a bounded write is always the N made
 * last, as the memory adapter (insertion order) and PostgreSQL's serial ids have it.
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
