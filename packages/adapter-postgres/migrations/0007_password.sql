-- Latchkey migration 0007: passwords of the Password provider. Auth.js has none (its
-- credentials provider leaves the password to the app). Additive: no existing table changes.
--
-- password_hashes: at most one per user. `hash` is a PHC-style string made by the core
--   (argon2id, PBKDF2-SHA-256, or an imported bcrypt hash awaiting its upgrade); the database
--   never sees a password.

CREATE TABLE IF NOT EXISTS password_hashes
(
  "userId" INTEGER NOT NULL REFERENCES users ON DELETE CASCADE,
  hash TEXT NOT NULL,
  "updatedAt" TIMESTAMPTZ NOT NULL DEFAULT now(),

  PRIMARY KEY ("userId")
);
