/**
 * Latchkey's tables for Drizzle's MySQL dialect (`mysql2`: MySQL, MariaDB, PlanetScale). Put
 * the ones your features need in your schema file (`npx latchkey generate --drizzle mysql`
 * writes it), so drizzle-kit's migrations own them.
 *
 * The five Auth.js tables keep the names, columns and keys of `@auth/drizzle-adapter`'s MySQL
 * schema: an Auth.js Drizzle database moves over without a data migration, and back. Where
 * Auth.js's column types lose data, Latchkey's are wider (drizzle-kit migrates them in place):
 *
 * - dates are `datetime(3)`, not `timestamp`: milliseconds kept (a session's expiry), and no
 *   end in January 2038;
 * - text is `utf8mb4` with the binary collation (`utf8mb4_bin`): an emoji in a name is kept,
 *   and lookups compare exactly (a session token or an address differing only in case is
 *   another one, as on PostgreSQL and SQLite);
 * - names, provider tokens and public keys are `text` (a 10 000-character ID token fits); ids
 *   and lookup keys are `varchar(255)`; `expires_at` and `counter` are `bigint`.
 *
 * Latchkey adds nullable columns to them and tables of its own (revocation, two-factor,
 * passwords, organizations).
 *
 * @module @latchkey/adapter-drizzle/mysql
 */
import type { AdapterAccountType } from "@latchkey/core/adapters"
import {
  bigint,
  boolean,
  customType,
  datetime,
  foreignKey,
  index,
  type MySqlColumn,
  mysqlTable,
  primaryKey,
  unique,
} from "drizzle-orm/mysql-core"

/** UTC to the millisecond. */
const time = (name: string) => datetime(name, { mode: "date", fsp: 3 })
const bigNumber = (name: string) => bigint(name, { mode: "number" })

/** An indexed string (ids, keys, addresses): 255 characters, compared exactly. */
const key = customType<{ data: string }>({
  dataType: () => "varchar(255) CHARACTER SET utf8mb4 COLLATE utf8mb4_bin",
})

/** A foreign key named `<table>_<column>_fk` (see {@link ownedBy} for why named). */
const refersTo = (
  table: string,
  column: MySqlColumn,
  target: MySqlColumn,
  onDelete: "cascade" | "set null",
) =>
  foreignKey({
    name: `${table}_${column.name}_fk`,
    columns: [column],
    foreignColumns: [target],
  }).onDelete(onDelete)

/**
 * The user a row belongs to, deleted with it. Named `<table>_userId_fk`, not as drizzle-kit
 * names a `references()` (Auth.js's tables): moving from Auth.js's tables, drizzle-kit then drops
 * Auth.js's key before it changes the columns' collation (which MySQL refuses while a foreign key
 * holds them) and adds this one after.
 */
const ownedBy = (table: string, userId: MySqlColumn) => refersTo(table, userId, users.id, "cascade")

/** Free text (names, tokens), up to 64 KiB, every character kept. */
const text = customType<{ data: string }>({
  dataType: () => "text CHARACTER SET utf8mb4 COLLATE utf8mb4_bin",
})

export const users = mysqlTable("user", {
  id: key("id")
    .primaryKey()
    .$defaultFn(() => crypto.randomUUID()),
  name: text("name"),
  email: key("email").unique(),
  emailVerified: time("emailVerified"),
  image: text("image"),
  /** Latchkey: when the row was made (unproven accounts are cleaned up by age); `NULL` before. */
  createdAt: time("createdAt"),
})

export const accounts = mysqlTable(
  "account",
  {
    userId: key("userId").notNull(),
    type: key("type").$type<AdapterAccountType>().notNull(),
    provider: key("provider").notNull(),
    providerAccountId: key("providerAccountId").notNull(),
    refresh_token: text("refresh_token"),
    access_token: text("access_token"),
    expires_at: bigNumber("expires_at"),
    token_type: text("token_type"),
    scope: text("scope"),
    id_token: text("id_token"),
    session_state: text("session_state"),
  },
  (t) => [
    primaryKey({ columns: [t.provider, t.providerAccountId] }),
    index("account_userId_idx").on(t.userId),
    ownedBy("account", t.userId),
  ],
)

export const sessions = mysqlTable(
  "session",
  {
    sessionToken: key("sessionToken").primaryKey(),
    userId: key("userId").notNull(),
    expires: time("expires").notNull(),
    // Latchkey (the account API): a public id that is never the token, and the sign-in facts.
    publicId: key("publicId").unique(),
    createdAt: time("createdAt"),
    lastSeenAt: time("lastSeenAt"),
    userAgent: text("userAgent"),
    authTime: time("authTime"),
    /** RFC 8176 values, a JSON array. */
    amr: text("amr"),
    /** Latchkey (organizations): the organization the session acts in, re-checked on use. */
    activeOrganizationId: key("activeOrganizationId"),
  },
  (t) => [index("session_userId_idx").on(t.userId), ownedBy("session", t.userId)],
)

export const verificationTokens = mysqlTable(
  "verificationToken",
  {
    identifier: key("identifier").notNull(),
    token: key("token").notNull(),
    expires: time("expires").notNull(),
  },
  (t) => [primaryKey({ columns: [t.identifier, t.token] })],
)

export const authenticators = mysqlTable(
  "authenticator",
  {
    credentialID: key("credentialID").notNull().unique(),
    userId: key("userId").notNull(),
    providerAccountId: key("providerAccountId").notNull(),
    credentialPublicKey: text("credentialPublicKey").notNull(),
    counter: bigNumber("counter").notNull(),
    credentialDeviceType: text("credentialDeviceType").notNull(),
    credentialBackedUp: boolean("credentialBackedUp").notNull(),
    transports: text("transports"),
    // Latchkey (the account API): the user's name for it, when made and last used.
    name: text("name"),
    createdAt: time("createdAt"),
    lastUsedAt: time("lastUsedAt"),
  },
  (t) => [primaryKey({ columns: [t.userId, t.credentialID] }), ownedBy("authenticator", t.userId)],
)

/** Ended session ids (`sid`), kept until the session could have expired. */
export const revokedSessions = mysqlTable(
  "revokedSession",
  {
    sid: key("sid").primaryKey(),
    expires: time("expires").notNull(),
  },
  (t) => [index("revokedSession_expires_idx").on(t.expires)],
)

/** "Sign out everywhere": a user's version; sessions signed in under an older one are over. */
export const userSessionVersions = mysqlTable("userSessionVersion", {
  // No foreign key: a JWT session's user may live outside this database.
  userId: key("userId").primaryKey(),
  version: bigNumber("version").notNull(),
})

/** One row per JWT session, for a "your devices" list. Never holds a token. */
export const sessionRecords = mysqlTable(
  "sessionRecord",
  {
    sid: key("sid").primaryKey(),
    userId: key("userId").notNull(),
    authTime: time("authTime").notNull(),
    expires: time("expires").notNull(),
    lastSeenAt: time("lastSeenAt"),
    userAgent: text("userAgent"),
  },
  (t) => [index("sessionRecord_userId_idx").on(t.userId)],
)

/** A user's TOTP enrollment: the secret as the core sealed it, `enabledAt` once confirmed. */
export const twoFactors = mysqlTable(
  "twoFactor",
  {
    userId: key("userId").primaryKey(),
    secret: text("secret").notNull(),
    enabledAt: time("enabledAt"),
    createdAt: time("createdAt").notNull(),
  },
  (t) => [ownedBy("twoFactor", t.userId)],
)

/** Hashes of a user's unused recovery codes; using a code deletes its row. */
export const twoFactorRecoveryCodes = mysqlTable(
  "twoFactorRecoveryCode",
  {
    userId: key("userId").notNull(),
    codeHash: key("codeHash").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.codeHash] }),
    ownedBy("twoFactorRecoveryCode", t.userId),
  ],
)

/** The `Password` provider's hash of a user's password (PHC string made by the core). */
export const passwordHashes = mysqlTable(
  "passwordHash",
  {
    userId: key("userId").primaryKey(),
    hash: text("hash").notNull(),
    updatedAt: time("updatedAt").notNull(),
  },
  (t) => [ownedBy("passwordHash", t.userId)],
)

/**
 * An organization. The slug is stored lower-cased, so its unique key holds without regard to
 * case; `creatorId` counts toward the creator's limit, and the organization outlives them.
 */
export const organizations = mysqlTable(
  "organization",
  {
    id: key("id").primaryKey(),
    name: text("name").notNull(),
    slug: key("slug").notNull().unique(),
    creatorId: key("creatorId"),
    createdAt: time("createdAt").notNull(),
  },
  (t) => [
    index("organization_creatorId_idx").on(t.creatorId),
    refersTo("organization", t.creatorId, users.id, "set null"),
  ],
)

/** A user's membership of an organization: one per (organization, user), the primary key. */
export const members = mysqlTable(
  "member",
  {
    organizationId: key("organizationId").notNull(),
    userId: key("userId").notNull(),
    role: key("role").notNull(),
    createdAt: time("createdAt").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.userId] }),
    index("member_userId_idx").on(t.userId),
    refersTo("member", t.organizationId, organizations.id, "cascade"),
    ownedBy("member", t.userId),
  ],
)

/** A pending invitation: one per (organization, address); a re-invite replaces it. */
export const invitations = mysqlTable(
  "invitation",
  {
    id: key("id").primaryKey(),
    organizationId: key("organizationId").notNull(),
    email: key("email").notNull(),
    role: key("role").notNull(),
    inviterId: key("inviterId").notNull(),
    expiresAt: time("expiresAt").notNull(),
    createdAt: time("createdAt").notNull(),
  },
  (t) => [
    unique("invitation_organizationId_email_unique").on(t.organizationId, t.email),
    index("invitation_inviterId_idx").on(t.inviterId),
    refersTo("invitation", t.organizationId, organizations.id, "cascade"),
    refersTo("invitation", t.inviterId, users.id, "cascade"),
  ],
)
