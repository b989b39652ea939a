/** Argument checks every store shares, so each implementation refuses the same inputs. */
import { InvalidParameter } from "../errors/errors.js"
import type { MapBound } from "../types/store.js"

const encoder = new TextEncoder()

/** A TTL or window: a positive, finite number of milliseconds. */
export function assertTtl(ms: number, name: string): void {
  if (typeof ms !== "number" || !Number.isFinite(ms) || ms <= 0) {
    throw new InvalidParameter(name, "must be a positive number of milliseconds")
  }
}

/** A map write's bound (`mapSet`): at least one field kept, a finite rank. */
export function assertMapBound(bound: MapBound | undefined): void {
  if (bound === undefined) return
  if (!Number.isInteger(bound.maxFields) || bound.maxFields < 1) {
    throw new InvalidParameter("bound.maxFields", "must be a whole number of at least 1")
  }
  if (typeof bound.rank !== "number" || !Number.isFinite(bound.rank)) {
    throw new InvalidParameter("bound.rank", "must be a finite number")
  }
}

/** A stored value: a string of at most `maxBytes` UTF-8 bytes. */
export function assertStoreValue(value: string, maxBytes: number): void {
  if (typeof value !== "string") throw new InvalidParameter("value", "must be a string")
  // Cheap bound first: a UTF-8 encoding is at most 3 bytes per UTF-16 code unit.
  if (value.length * 3 <= maxBytes) return
  if (encoder.encode(value).byteLength > maxBytes) {
    throw new InvalidParameter("value", `is larger than the store's limit of ${maxBytes} bytes`)
  }
}
