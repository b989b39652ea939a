/**
 * What every SQL adapter does the same way: rows of Auth.js's tables as the core's records, the
 * bound of a session write, and the names of prepared statements.
 */
import type {
  AdapterAccount,
  AdapterAuthenticator,
  AdapterUser,
  SessionRecordBound,
  VerificationToken,
} from "../../kernel/types/adapters.js"

type Row = Record<string, unknown>

/** A date column's value: drivers give a `Date`, or a string (BIGINT and text dates). */
export const toDate = (value: unknown): Date =>
  value instanceof Date ? value : new Date(String(value))
export const toNullableDate = (value: unknown) => (value == null ? null : toDate(value))
export const toNullableString = (value: unknown) => (value == null ? null : String(value))

/** A user row (Auth.js's columns) as the core's record: ids as strings, `null` for empty. */
export function toUser(row: Row): AdapterUser {
  return {
    id: String(row.id),
    name: toNullableString(row.name),
    email: String(row.email),
    emailVerified: toNullableDate(row.emailVerified),
    image: toNullableString(row.image),
  }
}

export function toVerificationToken(row: Row): VerificationToken {
  return {
    identifier: String(row.identifier),
    expires: toDate(row.expires),
    token: String(row.token),
  }
}

/**
 * An authenticator row; with the account API's columns (`name`, `createdAt`, `lastUsedAt`,
 * present when the row has `lastUsedAt`) those too.
 */
export function toAuthenticator(row: Row): AdapterAuthenticator {
  const extra: Partial<AdapterAuthenticator> =
    "lastUsedAt" in row
      ? {
          name: toNullableString(row.name),
          createdAt: toNullableDate(row.createdAt),
          lastUsedAt: toNullableDate(row.lastUsedAt),
        }
      : {}
  return {
    ...extra,
    credentialID: String(row.credentialID),
    userId: String(row.userId),
    providerAccountId: String(row.providerAccountId),
    credentialPublicKey: String(row.credentialPublicKey),
    counter: Number(row.counter),
    credentialDeviceType: String(row.credentialDeviceType),
    credentialBackedUp: Boolean(row.credentialBackedUp),
    transports: toNullableString(row.transports),
  }
}

/** Auth.js's account columns, every one a Latchkey SQL adapter stores. */
export const accountColumns = [
  "userId",
  "type",
  "provider",
  "providerAccountId",
  "refresh_token",
  "access_token",
  "expires_at",
  "id_token",
  "scope",
  "session_state",
  "token_type",
] as const

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
export function toAccount(row: Row): AdapterAccount {
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
