/**
 * Rows to Latchkey records and back. The Auth.js schema uses SERIAL integer ids; the core
 * speaks strings. BIGINT columns come back as strings from `pg` and as numbers from PGlite.
 */
import type {
  AdapterAccount,
  AdapterAuthenticator,
  AdapterSession,
  AdapterUser,
  VerificationToken,
} from "@latchkey/core/adapters"

export { toAccount } from "@latchkey/core/adapters/sql"

import type { Row } from "./client.js"

const maxSerial = 2_147_483_647

/**
 * The integer behind a user id, or `null` when the string cannot be an id of this database
 * (a UUID from another adapter, a JWT `sub`…): lookups then find nothing instead of failing.
 */
export function toDbId(id: string | undefined | null): number | null {
  if (typeof id !== "string" || !/^[1-9][0-9]{0,9}$/.test(id)) return null
  const n = Number(id)
  return n <= maxSerial ? n : null
}

export const toDate = (value: unknown): Date =>
  value instanceof Date ? value : new Date(String(value))
const toNullableDate = (value: unknown) => (value == null ? null : toDate(value))
const toNullableString = (value: unknown) => (value == null ? null : String(value))

export const userColumns = `id, name, email, "emailVerified", image`
export const userColumnsOf = (alias: string) =>
  `${alias}.id, ${alias}.name, ${alias}.email, ${alias}."emailVerified", ${alias}.image`

export function toUser(row: Row): AdapterUser {
  return {
    id: String(row.id),
    name: toNullableString(row.name),
    email: String(row.email),
    emailVerified: toNullableDate(row.emailVerified),
    image: toNullableString(row.image),
  }
}

export const accountColumns = `"userId", type, provider, "providerAccountId", refresh_token,
  access_token, expires_at, id_token, scope, session_state, token_type`

/** Parameters for inserting `account`, in the order of {@link accountColumns}. */
export function accountParams(account: AdapterAccount, userId: number): unknown[] {
  return [
    userId,
    account.type,
    account.provider,
    account.providerAccountId,
    account.refresh_token ?? null,
    account.access_token ?? null,
    account.expires_at ?? null,
    account.id_token ?? null,
    account.scope ?? null,
    account.session_state ?? null,
    account.token_type ?? null,
  ]
}

export function toVerificationToken(row: Row): VerificationToken {
  return {
    identifier: String(row.identifier),
    expires: toDate(row.expires),
    token: String(row.token),
  }
}

export const authenticatorColumns = `"credentialID", "userId", "providerAccountId",
  "credentialPublicKey", counter, "credentialDeviceType", "credentialBackedUp", transports`

/** With the account API's columns (migration 0005). */
export const authenticatorColumnsFull = `${authenticatorColumns}, name, "createdAt", "lastUsedAt"`

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

/** A session row; `sessionToken` is the core's token (the row may hold only its hash). */
export function toSession(sessionToken: string, row: Row): AdapterSession {
  return { sessionToken, userId: String(row.userId), expires: toDate(row.expires) }
}

/** A session row with the account API's columns (migration 0005). */
export const sessionColumns = `"userId", expires, "publicId", "createdAt", "lastSeenAt",
  "userAgent", "authTime", amr`

/** The account API's fields of a session row (`createdAt` under another name in joins). */
export function sessionExtras(
  row: Row,
  createdAt: unknown = row.createdAt,
): Partial<AdapterSession> {
  return {
    id: String(row.publicId),
    createdAt: toNullableDate(createdAt) ?? undefined,
    lastSeenAt: toNullableDate(row.lastSeenAt),
    userAgent: toNullableString(row.userAgent),
    authTime: toNullableDate(row.authTime),
    amr: Array.isArray(row.amr) ? row.amr.map(String) : null,
  }
}

/** A full session row (account API columns) for the core's token. */
export function toFullSession(sessionToken: string, row: Row): AdapterSession {
  return { ...toSession(sessionToken, row), ...sessionExtras(row) }
}
