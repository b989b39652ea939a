/**
 * Latchkey's tables for Drizzle's PostgreSQL dialect (`pg`, PGlite, Neon, Supabase, Vercel).
 * Put the ones your features need in your schema file (`npx latchkey generate --drizzle pg`
 * writes it), so drizzle-kit's migrations own them.
 *
 * The five Auth.js tables keep the names, columns and keys of `@auth/drizzle-adapter`'s
 * PostgreSQL schema: an Auth.js Drizzle database moves over without a data migration, and back.
 * Two columns are wider than Auth.js's: `account.expires_at` (a provider may give a date past
 * 2038) and `authenticator.counter` (an unsigned 32-bit value) are `bigint`. Latchkey adds
 * nullable columns to them and tables of its own (revocation, two-factor, passwords,
 * organizations).
 *
 * @module @latchkey/adapter-drizzle/pg
 */
import type { AdapterAccountType } from "@latchkey/core/adapters"
import {
  bigint,
  boolean,
  index,
  pgTable,
  primaryKey,
  text,
  timestamp,
  unique,
} from "drizzle-orm/pg-core"

/** `timestamp` (UTC, without time zone), as `@auth/drizzle-adapter` stores its dates. */
const time = (name: string) => timestamp(name, { mode: "date" })
const bigNumber = (name: string) => bigint(name, { mode: "number" })

export const users = pgTable("user", {
  id: text("id")
    .primaryKey()
    .$defaultFn(() => crypto.randomUUID()),
  name: text("name"),
  email: text("email").unique(),
  emailVerified: time("emailVerified"),
  image: text("image"),
  /** Latchkey: when the row was made (unproven accounts are cleaned up by age); `NULL` before. */
  createdAt: time("createdAt"),
})

export const accounts = pgTable(
  "account",
  {
    userId: text("userId")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    type: text("type").$type<AdapterAccountType>().notNull(),
    provider: text("provider").notNull(),
    providerAccountId: text("providerAccountId").notNull(),
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
  ],
)

export const sessions = pgTable(
  "session",
  {
    sessionToken: text("sessionToken").primaryKey(),
    userId: text("userId")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expires: time("expires").notNull(),
    // Latchkey (the account API): a public id that is never the token, and the sign-in facts.
    publicId: text("publicId").unique(),
    createdAt: time("createdAt"),
    lastSeenAt: time("lastSeenAt"),
    userAgent: text("userAgent"),
    authTime: time("authTime"),
    /** RFC 8176 values, a JSON array. */
    amr: text("amr"),
    /** Latchkey (organizations): the organization the session acts in, re-checked on use. */
    activeOrganizationId: text("activeOrganizationId"),
  },
  (t) => [index("session_userId_idx").on(t.userId)],
)

export const verificationTokens = pgTable(
  "verificationToken",
  {
    identifier: text("identifier").notNull(),
    token: text("token").notNull(),
    expires: time("expires").notNull(),
  },
  (t) => [primaryKey({ columns: [t.identifier, t.token] })],
)

export const authenticators = pgTable(
  "authenticator",
  {
    credentialID: text("credentialID").notNull().unique(),
    userId: text("userId")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    providerAccountId: text("providerAccountId").notNull(),
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
  (t) => [primaryKey({ columns: [t.userId, t.credentialID] })],
)

/** Ended session ids (`sid`), kept until the session could have expired. */
export const revokedSessions = pgTable(
  "revokedSession",
  {
    sid: text("sid").primaryKey(),
    expires: time("expires").notNull(),
  },
  (t) => [index("revokedSession_expires_idx").on(t.expires)],
)

/** "Sign out everywhere": a user's version; sessions signed in under an older one are over. */
export const userSessionVersions = pgTable("userSessionVersion", {
  // No foreign key: a JWT session's user may live outside this database.
  userId: text("userId").primaryKey(),
  version: bigNumber("version").notNull(),
})

/** One row per JWT session, for a "your devices" list. Never holds a token. */
export const sessionRecords = pgTable(
  "sessionRecord",
  {
    sid: text("sid").primaryKey(),
    userId: text("userId").notNull(),
    authTime: time("authTime").notNull(),
    expires: time("expires").notNull(),
    lastSeenAt: time("lastSeenAt"),
    userAgent: text("userAgent"),
  },
  (t) => [index("sessionRecord_userId_idx").on(t.userId)],
)

/** A user's TOTP enrollment: the secret as the core sealed it, `enabledAt` once confirmed. */
export const twoFactors = pgTable("twoFactor", {
  userId: text("userId")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  secret: text("secret").notNull(),
  enabledAt: time("enabledAt"),
  createdAt: time("createdAt").notNull(),
})

/** Hashes of a user's unused recovery codes; using a code deletes its row. */
export const twoFactorRecoveryCodes = pgTable(
  "twoFactorRecoveryCode",
  {
    userId: text("userId")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    codeHash: text("codeHash").notNull(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.codeHash] })],
)

/** The `Password` provider's hash of a user's password (PHC string made by the core). */
export const passwordHashes = pgTable("passwordHash", {
  userId: text("userId")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  hash: text("hash").notNull(),
  updatedAt: time("updatedAt").notNull(),
})

/**
 * An organization. The slug is stored lower-cased, so its unique key holds without regard to
 * case; `creatorId` counts toward the creator's limit, and the organization outlives them.
 */
export const organizations = pgTable(
  "organization",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    slug: text("slug").notNull().unique(),
    creatorId: text("creatorId").references(() => users.id, { onDelete: "set null" }),
    createdAt: time("createdAt").notNull(),
  },
  (t) => [index("organization_creatorId_idx").on(t.creatorId)],
)

/** A user's membership of an organization: one per (organization, user), the primary key. */
export const members = pgTable(
  "member",
  {
    organizationId: text("organizationId")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    userId: text("userId")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    role: text("role").notNull(),
    createdAt: time("createdAt").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.organizationId, t.userId] }),
    index("member_userId_idx").on(t.userId),
  ],
)

/** A pending invitation: one per (organization, address); a re-invite replaces it. */
export const invitations = pgTable(
  "invitation",
  {
    id: text("id").primaryKey(),
    organizationId: text("organizationId")
      .notNull()
      .references(() => organizations.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    role: text("role").notNull(),
    inviterId: text("inviterId")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    expiresAt: time("expiresAt").notNull(),
    createdAt: time("createdAt").notNull(),
  },
  (t) => [
    unique("invitation_organizationId_email_unique").on(t.organizationId, t.email),
    index("invitation_inviterId_idx").on(t.inviterId),
  ],
)
