// Better Auth's core tables as Drizzle schema objects (what its CLI writes for the Drizzle
// adapter), for SQLite and PostgreSQL: the peer's side of bench/drizzle-session.mjs.
import { relations } from "drizzle-orm"
import { boolean, pgTable, text, timestamp } from "drizzle-orm/pg-core"
import { integer, sqliteTable, text as sqliteText } from "drizzle-orm/sqlite-core"

function pgSchema() {
  const user = pgTable("user", {
    id: text("id").primaryKey(),
    name: text("name").notNull(),
    email: text("email").notNull().unique(),
    emailVerified: boolean("email_verified").notNull(),
    image: text("image"),
    createdAt: timestamp("created_at").notNull(),
    updatedAt: timestamp("updated_at").notNull(),
  })
  const session = pgTable("session", {
    id: text("id").primaryKey(),
    expiresAt: timestamp("expires_at").notNull(),
    token: text("token").notNull().unique(),
    createdAt: timestamp("created_at").notNull(),
    updatedAt: timestamp("updated_at").notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
  })
  const account = pgTable("account", {
    id: text("id").primaryKey(),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    userId: text("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at"),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at"),
    scope: text("scope"),
    password: text("password"),
    createdAt: timestamp("created_at").notNull(),
    updatedAt: timestamp("updated_at").notNull(),
  })
  const verification = pgTable("verification", {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at").notNull(),
    createdAt: timestamp("created_at"),
    updatedAt: timestamp("updated_at"),
  })
  return withRelations({ user, session, account, verification })
}

function sqliteSchema() {
  const time = (name) => integer(name, { mode: "timestamp_ms" })
  const user = sqliteTable("user", {
    id: sqliteText("id").primaryKey(),
    name: sqliteText("name").notNull(),
    email: sqliteText("email").notNull().unique(),
    emailVerified: integer("email_verified", { mode: "boolean" }).notNull(),
    image: sqliteText("image"),
    createdAt: time("created_at").notNull(),
    updatedAt: time("updated_at").notNull(),
  })
  const session = sqliteTable("session", {
    id: sqliteText("id").primaryKey(),
    expiresAt: time("expires_at").notNull(),
    token: sqliteText("token").notNull().unique(),
    createdAt: time("created_at").notNull(),
    updatedAt: time("updated_at").notNull(),
    ipAddress: sqliteText("ip_address"),
    userAgent: sqliteText("user_agent"),
    userId: sqliteText("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
  })
  const account = sqliteTable("account", {
    id: sqliteText("id").primaryKey(),
    accountId: sqliteText("account_id").notNull(),
    providerId: sqliteText("provider_id").notNull(),
    userId: sqliteText("user_id")
      .notNull()
      .references(() => user.id, { onDelete: "cascade" }),
    accessToken: sqliteText("access_token"),
    refreshToken: sqliteText("refresh_token"),
    idToken: sqliteText("id_token"),
    accessTokenExpiresAt: time("access_token_expires_at"),
    refreshTokenExpiresAt: time("refresh_token_expires_at"),
    scope: sqliteText("scope"),
    password: sqliteText("password"),
    createdAt: time("created_at").notNull(),
    updatedAt: time("updated_at").notNull(),
  })
  const verification = sqliteTable("verification", {
    id: sqliteText("id").primaryKey(),
    identifier: sqliteText("identifier").notNull(),
    value: sqliteText("value").notNull(),
    expiresAt: time("expires_at").notNull(),
    createdAt: time("created_at"),
    updatedAt: time("updated_at"),
  })
  return withRelations({ user, session, account, verification })
}

/** The relations Better Auth's CLI writes beside the tables (its adapter joins through them). */
function withRelations(tables) {
  const { user, session, account } = tables
  return {
    ...tables,
    userRelations: relations(user, ({ many }) => ({
      sessions: many(session),
      accounts: many(account),
    })),
    sessionRelations: relations(session, ({ one }) => ({
      user: one(user, { fields: [session.userId], references: [user.id] }),
    })),
    accountRelations: relations(account, ({ one }) => ({
      user: one(user, { fields: [account.userId], references: [user.id] }),
    })),
  }
}

/** Better Auth's tables (and relations) for `provider`: "sqlite" or "pg". */
export const betterAuthTables = (provider) => (provider === "pg" ? pgSchema() : sqliteSchema())
