/**
 * Rows to records, for what every SQL adapter stores the same way: the Auth.js account columns,
 * and the bound of a session write.
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
