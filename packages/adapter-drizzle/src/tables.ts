/**
 * The tables the adapter works on, found by their SQL names among the values of the app's
 * schema module (or the `schema` a Drizzle database was made with). Which of Latchkey's optional
 * tables and columns are there decides which method groups the adapter offers: a feature whose
 * tables the app has not created is refused by the core at start-up, naming the methods, rather
 * than failing at sign-in.
 */
import { type Column, getTableName, is, Table } from "drizzle-orm"

/** A table with (at least) these columns, under property names equal to the column names. */
type TableOf<C extends string> = Table & { [K in C]: Column }
/** Columns Latchkey adds to an Auth.js table: an Auth.js schema does not have them. */
type Added<C extends string> = { [K in C]?: Column }

export interface LatchkeyTables {
  users: TableOf<"id" | "name" | "email" | "emailVerified" | "image"> & Added<"createdAt">
  accounts: TableOf<
    | "userId"
    | "type"
    | "provider"
    | "providerAccountId"
    | "refresh_token"
    | "access_token"
    | "expires_at"
    | "token_type"
    | "scope"
    | "id_token"
    | "session_state"
  >
  sessions: TableOf<"sessionToken" | "userId" | "expires"> &
    Added<
      | "publicId"
      | "createdAt"
      | "lastSeenAt"
      | "userAgent"
      | "authTime"
      | "amr"
      | "activeOrganizationId"
    >
  verificationTokens: TableOf<"identifier" | "token" | "expires">
  authenticators?: TableOf<
    | "credentialID"
    | "userId"
    | "providerAccountId"
    | "credentialPublicKey"
    | "counter"
    | "credentialDeviceType"
    | "credentialBackedUp"
    | "transports"
  > &
    Added<"name" | "createdAt" | "lastUsedAt">
  revokedSessions?: TableOf<"sid" | "expires">
  userSessionVersions?: TableOf<"userId" | "version">
  sessionRecords?: TableOf<"sid" | "userId" | "authTime" | "expires"> &
    Added<"lastSeenAt" | "userAgent">
  twoFactors?: TableOf<"userId" | "secret" | "enabledAt" | "createdAt">
  twoFactorRecoveryCodes?: TableOf<"userId" | "codeHash">
  passwordHashes?: TableOf<"userId" | "hash" | "updatedAt">
  organizations?: TableOf<"id" | "name" | "slug" | "creatorId" | "createdAt">
  members?: TableOf<"organizationId" | "userId" | "role" | "createdAt">
  invitations?: TableOf<
    "id" | "organizationId" | "email" | "role" | "inviterId" | "expiresAt" | "createdAt"
  >
}

/** Each table's SQL name (the names of `@auth/drizzle-adapter` for the first five). */
export const tableNames = {
  users: "user",
  accounts: "account",
  sessions: "session",
  verificationTokens: "verificationToken",
  authenticators: "authenticator",
  revokedSessions: "revokedSession",
  userSessionVersions: "userSessionVersion",
  sessionRecords: "sessionRecord",
  twoFactors: "twoFactor",
  twoFactorRecoveryCodes: "twoFactorRecoveryCode",
  passwordHashes: "passwordHash",
  organizations: "organization",
  members: "member",
  invitations: "invitation",
} as const satisfies Record<keyof LatchkeyTables, string>

const required = ["users", "accounts", "sessions", "verificationTokens"] as const

/** Thrown when the schema lacks a table every sign-in needs. */
export class MissingTablesError extends Error {
  override name = "MissingTablesError"
}

/** The tables of `schema` (any object whose values include Drizzle tables), by SQL name. */
export function findTables(schema: Record<string, unknown>): LatchkeyTables {
  const byName = new Map<string, Table>()
  for (const value of Object.values(schema)) {
    if (is(value, Table)) byName.set(getTableName(value), value)
  }
  const found: Partial<Record<keyof LatchkeyTables, Table>> = {}
  for (const [key, name] of Object.entries(tableNames) as [keyof LatchkeyTables, string][]) {
    const table = byName.get(name)
    if (table) found[key] = table
  }
  const missing = required.filter((key) => !found[key])
  if (missing.length > 0) {
    throw new MissingTablesError(
      `DrizzleAdapter: the schema has no table ${missing.map((k) => `"${tableNames[k]}"`).join(", ")}. Pass the schema module that holds Latchkey's tables (npx latchkey generate --drizzle <dialect> writes it): DrizzleAdapter(db, { schema }), or drizzle(client, { schema })`,
    )
  }
  return found as LatchkeyTables
}
