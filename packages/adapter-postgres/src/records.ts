/**
 * Rows to Latchkey records and back. The Auth.js schema uses SERIAL integer ids; the core
 * speaks strings. BIGINT columns come back as strings from `pg` and as numbers from PGlite.
 */
import type { AdapterAccount, AdapterSession } from "@latchkey/core/adapters"
import { toDate, toNullableDate, toNullableString } from "@latchkey/core/adapters/sql"

export {
  toAccount,
  toAuthenticator,
  toDate,
  toUser,
  toVerificationToken,
} from "@latchkey/core/adapters/sql"

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

/** Whether `value` is a UUID: what a UUID column holds (anything else would fail the cast). */
export const isUuid = (value: string) =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value)

export const userColumns = `id, name, email, "emailVerified", image`
export const userColumnsOf = (alias: string) =>
  `${alias}.id, ${alias}.name, ${alias}.email, ${alias}."emailVerified", ${alias}.image`

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

export const authenticatorColumns = `"credentialID", "userId", "providerAccountId",
  "credentialPublicKey", counter, "credentialDeviceType", "credentialBackedUp", transports`

/** With the account API's columns (migration 0005). */
export const authenticatorColumnsFull = `${authenticatorColumns}, name, "createdAt", "lastUsedAt"`

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
    // Migration 0009: present when the session acts in an organization.
    ...(row.activeOrganizationId != null
      ? { activeOrganizationId: String(row.activeOrganizationId) }
      : {}),
  }
}

/** A full session row (account API columns) for the core's token. */
export function toFullSession(sessionToken: string, row: Row): AdapterSession {
  return { ...toSession(sessionToken, row), ...sessionExtras(row) }
}
