/**
 * Rows to the core's records. Drizzle has already turned each dialect's stored values into
 * JavaScript ones (dates, booleans, numbers) through the columns; what is left is the shape:
 * `null` for what the core types as nullable, strings for ids, the `amr` list from its JSON.
 */
import type {
  AdapterInvitation,
  AdapterMember,
  AdapterOrganization,
  AdapterSession,
} from "@latchkey/core/adapters"
import { toNullableDate, toNullableString } from "@latchkey/core/adapters/sql"

export {
  accountColumns,
  toAuthenticator,
  toUser,
  toVerificationToken,
} from "@latchkey/core/adapters/sql"

import type { Column } from "drizzle-orm"
import type { Fields, Row } from "./query.js"
import type { LatchkeyTables } from "./tables.js"

/** `table`'s columns named `names` (those the table has), as fields to select. */
export function pick<T extends object>(table: T, names: readonly string[]): Fields {
  const fields: Fields = {}
  for (const name of names) {
    const column = (table as Record<string, Column | undefined>)[name]
    if (column) fields[name] = column
  }
  return fields
}

export const userColumns = ["id", "name", "email", "emailVerified", "image"] as const

export const verificationTokenColumns = ["identifier", "token", "expires"] as const

/** A session's Auth.js columns and, when the table has them, the account API's. */
export const sessionColumns = [
  "userId",
  "expires",
  "publicId",
  "createdAt",
  "lastSeenAt",
  "userAgent",
  "authTime",
  "amr",
  "activeOrganizationId",
] as const

/** Whether the sessions table has the account API's columns (a Latchkey schema). */
export const hasAccountColumns = (t: LatchkeyTables) =>
  Boolean(t.sessions.publicId && t.sessions.createdAt && t.sessions.authTime && t.sessions.amr)

/** A session row for the core's token (the row may hold only its hash). */
export function toSession(sessionToken: string, row: Row): AdapterSession {
  const session: AdapterSession = {
    sessionToken,
    userId: String(row.userId),
    expires: row.expires as Date,
  }
  if (!("publicId" in row)) return session
  return {
    ...session,
    ...(row.publicId != null ? { id: String(row.publicId) } : {}),
    ...(row.createdAt instanceof Date ? { createdAt: row.createdAt } : {}),
    lastSeenAt: toNullableDate(row.lastSeenAt),
    userAgent: toNullableString(row.userAgent),
    authTime: toNullableDate(row.authTime),
    amr: parseAmr(row.amr),
    // Organizations: present when the session acts in one.
    ...(row.activeOrganizationId != null
      ? { activeOrganizationId: String(row.activeOrganizationId) }
      : {}),
  }
}

/** The stored `amr` list; anything but a JSON array of strings reads as unknown (`null`). */
function parseAmr(value: unknown): string[] | null {
  if (typeof value !== "string") return null
  try {
    const list: unknown = JSON.parse(value)
    return Array.isArray(list) && list.every((x) => typeof x === "string") ? list : null
  } catch {
    return null
  }
}

export const authenticatorColumns = [
  "credentialID",
  "userId",
  "providerAccountId",
  "credentialPublicKey",
  "counter",
  "credentialDeviceType",
  "credentialBackedUp",
  "transports",
  "name",
  "createdAt",
  "lastUsedAt",
] as const

export const organizationColumns = ["id", "name", "slug", "createdAt"] as const
export const memberColumns = ["organizationId", "userId", "role", "createdAt"] as const
export const invitationColumns = [
  "id",
  "organizationId",
  "email",
  "role",
  "inviterId",
  "expiresAt",
  "createdAt",
] as const

export const toOrganization = (row: Row): AdapterOrganization => ({
  id: String(row.id),
  name: String(row.name),
  slug: String(row.slug),
  createdAt: row.createdAt as Date,
})

export const toMember = (row: Row): AdapterMember => ({
  organizationId: String(row.organizationId),
  userId: String(row.userId),
  role: String(row.role),
  createdAt: row.createdAt as Date,
})

export const toInvitation = (row: Row): AdapterInvitation => ({
  id: String(row.id),
  organizationId: String(row.organizationId),
  email: String(row.email),
  role: String(row.role),
  inviterId: String(row.inviterId),
  expiresAt: row.expiresAt as Date,
  createdAt: row.createdAt as Date,
})
