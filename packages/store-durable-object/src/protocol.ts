/**
 * What `DurableObjectStore` sends its object: one store operation as JSON, and what comes back.
 * Arguments are checked by the store before they are sent.
 */
import type { MapBound, RateLimitResult } from "@latchkey/core/store"

export type Operation =
  | { op: "hit"; args: [key: string, windowMs: number, limit: number] }
  | { op: "consumeOnce"; args: [key: string, ttlMs: number] }
  | { op: "get"; args: [key: string] }
  | { op: "getMany"; args: [keys: string[]] }
  | { op: "set"; args: [key: string, value: string, ttlMs: number] }
  | { op: "delete"; args: [key: string] }
  | {
      op: "mapSet"
      args: [key: string, field: string, value: string, ttlMs: number, bound?: MapBound]
    }
  | { op: "mapGet"; args: [key: string, field: string] }
  | { op: "mapGetAll"; args: [key: string] }
  | { op: "mapDelete"; args: [key: string, fields: string[]] }

export type OperationResult =
  | RateLimitResult
  | boolean
  | string
  | null
  | (string | null)[]
  | Record<string, string>

export const operationNames: ReadonlySet<string> = new Set([
  "hit",
  "consumeOnce",
  "get",
  "getMany",
  "set",
  "delete",
  "mapSet",
  "mapGet",
  "mapGetAll",
  "mapDelete",
])
