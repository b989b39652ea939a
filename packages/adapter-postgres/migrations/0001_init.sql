-- Latchkey migration 0001: the @auth/pg-adapter schema (users, accounts, sessions,
-- verification_token), same tables, columns and types, so an Auth.js database works unchanged.
--
-- One deliberate difference: users.name is TEXT (Auth.js: VARCHAR(255)), so a provider display
-- name longer than 255 characters cannot break a sign-in.
--
-- Every statement is IF NOT EXISTS: run against an existing Auth.js database, this migration
-- keeps the tables and their data and only adds the indexes below when they are missing.

CREATE TABLE IF NOT EXISTS users
(
  id SERIAL,
  name TEXT,
  email VARCHAR(255) UNIQUE,
  "emailVerified" TIMESTAMPTZ,
  image TEXT,

  PRIMARY KEY (id)
);

CREATE TABLE IF NOT EXISTS accounts
(
  id SERIAL,
  "userId" INTEGER NOT NULL REFERENCES users ON DELETE CASCADE,
  type VARCHAR(255) NOT NULL,
  provider VARCHAR(255) NOT NULL,
  "providerAccountId" VARCHAR(255) NOT NULL,
  refresh_token TEXT,
  access_token TEXT,
  expires_at BIGINT,
  id_token TEXT,
  scope TEXT,
  session_state TEXT,
  token_type TEXT,

  PRIMARY KEY (id)
);

CREATE TABLE IF NOT EXISTS sessions
(
  id SERIAL,
  "userId" INTEGER NOT NULL REFERENCES users ON DELETE CASCADE,
  expires TIMESTAMPTZ NOT NULL,
  "sessionToken" VARCHAR(255) NOT NULL,

  PRIMARY KEY (id)
);

CREATE TABLE IF NOT EXISTS verification_token
(
  identifier TEXT NOT NULL,
  expires TIMESTAMPTZ NOT NULL,
  token TEXT NOT NULL,

  PRIMARY KEY (identifier, token)
);

-- Every request with a database session looks its token up: one index probe, and a token
-- can never belong to two sessions. (Named as PostgreSQL names Auth.js's inline UNIQUE, so a
-- database created by Auth.js's schema.sql is not given a second, identical index.)
CREATE UNIQUE INDEX IF NOT EXISTS "sessions_sessionToken_key" ON sessions ("sessionToken");

-- An account at a provider belongs to one user: sign-in looks it up by this pair.
CREATE UNIQUE INDEX IF NOT EXISTS "accounts_provider_providerAccountId_key"
  ON accounts (provider, "providerAccountId");

-- deleteUser removes sessions and accounts by user.
CREATE INDEX IF NOT EXISTS "sessions_userId_idx" ON sessions ("userId");
CREATE INDEX IF NOT EXISTS "accounts_userId_idx" ON accounts ("userId");
