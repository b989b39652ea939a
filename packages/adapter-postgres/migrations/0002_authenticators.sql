-- Latchkey migration 0002: WebAuthn credentials. @auth/pg-adapter has no such table; the columns
-- are those of Auth.js's `Authenticator` model (the Prisma/Drizzle adapters), quoted camelCase
-- like the other tables. Rows go with their user (ON DELETE CASCADE).

CREATE TABLE IF NOT EXISTS authenticators
(
  "credentialID" TEXT NOT NULL,
  "userId" INTEGER NOT NULL REFERENCES users ON DELETE CASCADE,
  "providerAccountId" TEXT NOT NULL,
  "credentialPublicKey" TEXT NOT NULL,
  -- The signature counter is an unsigned 32-bit value: too large for INTEGER.
  counter BIGINT NOT NULL,
  "credentialDeviceType" TEXT NOT NULL,
  "credentialBackedUp" BOOLEAN NOT NULL,
  transports TEXT,

  PRIMARY KEY ("credentialID")
);

CREATE INDEX IF NOT EXISTS "authenticators_userId_idx" ON authenticators ("userId");
