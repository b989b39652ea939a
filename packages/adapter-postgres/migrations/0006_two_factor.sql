-- Latchkey migration 0006: two-factor sign-in (TOTP and recovery codes). Auth.js has none.
-- Independent of 0005 (the account API's columns): either may be applied first.
--
-- two_factor: one TOTP enrollment per user. `secret` is sealed by the core (compact JWE under a
--   key derived from AUTH_SECRET): the database never holds the TOTP secret itself.
--   "enabledAt" is NULL while the enrollment waits for its first code.
-- two_factor_recovery_codes: SHA-256 hashes of the user's unused recovery codes (bound to the
--   user id by the core); using a code deletes its row.

CREATE TABLE IF NOT EXISTS two_factor
(
  "userId" INTEGER NOT NULL REFERENCES users ON DELETE CASCADE,
  secret TEXT NOT NULL,
  "enabledAt" TIMESTAMPTZ,
  "createdAt" TIMESTAMPTZ NOT NULL DEFAULT now(),

  PRIMARY KEY ("userId")
);

CREATE TABLE IF NOT EXISTS two_factor_recovery_codes
(
  "userId" INTEGER NOT NULL REFERENCES users ON DELETE CASCADE,
  "codeHash" TEXT NOT NULL,

  PRIMARY KEY ("userId", "codeHash")
);
