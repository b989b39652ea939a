/**
 * What every SQL adapter does the same way: the Auth.js account columns of a row, the bound of
 * a session write, and the names of prepared statements.
 */
import type { AdapterAccount, SessionRecordBound } from "../../adapters.js"

/** The Auth.js account columns a row may leave `NULL`. */
const optionalAccountColumns = [
  "refresh_token",
  "access_token",
  "id_token",
  "scope",
  "session_state",
  "token_type",
] as const

/**
 * An account row (the Auth.js columns) as the core's `Account` type has it: the columns that are
 * `NULL` left out, `expires_at` a number (BIGINT columns come back as strings from some drivers).
 */
export function toAccount(row: Record<string, unknown>): AdapterAccount {
  const account: AdapterAccount = {
    userId: String(row.userId),
    type: row.type as AdapterAccount["type"],
    provider: String(row.provider),
    providerAccountId: String(row.providerAccountId),
  }
  for (const column of optionalAccountColumns) {
    if (row[column] != null) account[column] = String(row[column])
  }
  if (row.expires_at != null) account.expires_at = Number(row.expires_at)
  return account
}

/** How many of the user's other records a bounded write keeps (no bound: all of them). */
export function othersKept(bound: SessionRecordBound | undefined): number {
  return bound ? Math.max(0, bound.maxPerUser - 1) : 2_147_483_647
}

/** FNV-1a (32-bit), hex: short and stable; it only has to tell statement texts apart. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return (hash >>> 0).toString(16).padStart(8, "0")
}

/**
 * The name a statement is prepared under on a PostgreSQL connection: `latchkey_<method>_<hash
 * of the text>`. PostgreSQL refuses one name for two texts on one connection (two versions of
 * an adapter sharing a pool, say), and a changed statement gets a new name.
 */
export function preparedStatementName(method: string, text: string): string {
  return `latchkey_${method}_${fnv1a(text)}`
}
